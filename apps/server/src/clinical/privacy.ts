/**
 * Who sees national ID numbers and phone numbers in full: holders of the patient-details
 * function. Everyone else sees them masked, in lists and in the person view alike.
 */
export const SEE_IDENTITY_API_ID = 'DataLakePatientDetails.get';

/** Whether the reader may see identity: a request context (or, for older callers, a request). */
export const canSeeIdentity = (reader: { auth?: { apiIds: ReadonlySet<string> } | null }) =>
  reader.auth?.apiIds.has(SEE_IDENTITY_API_ID) ?? false;

/** 110101199003071234 -> 110101********1234; short values keep only their last character. */
export function maskNationalId(id: string) {
  if (!id) return '';
  if (id.length < 8) return `${'*'.repeat(id.length - 1)}${id.slice(-1)}`;
  return `${id.slice(0, 6)}${'*'.repeat(id.length - 10 > 0 ? id.length - 10 : 4)}${id.slice(-4)}`;
}

/** 13812345678 -> 138****5678. */
export function maskPhone(phone: string) {
  if (phone.length < 7) return phone ? '*'.repeat(phone.length) : '';
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
}
