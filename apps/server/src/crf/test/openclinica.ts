/** The subjects of the OpenClinica demo's Eligibility CRF (SubjectKey as the file writes it). */
export const ELIGIBILITY_SUBJECTS = [
  'SS_CAM101',
  'SS_CAM103',
  'SS_CAM105',
  'SS_SCRC001',
  'SS_SCRC002',
  'SS_SCRC003',
  'SS_SCRC004',
  'SS_SCRC005',
  'SS_SCRC010',
  'SS_SCRC011',
  'SS_SMC101',
];
