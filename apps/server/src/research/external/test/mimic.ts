/*
 * Test data of the MIMIC analysis (research/external): the server's tests and the browser
 * stories (e2e/tests/variable-library-more.spec.ts) import the same table. Nothing but data here,
 * so the browser tests load no server code.
 */

/** A MIMIC-like ICU stay table as CSV: `n` stays, mortality rising with age and length of stay. */
export function mimicCsv(n = 40) {
  const lines = [
    'subject_id,hadm_id,stay_id,first_careunit,intime,outtime,anchor_age,gender,hospital_expire_flag',
  ];
  for (let i = 0; i < n; i++) {
    const age = 40 + ((i * 7) % 45);
    const hours = 24 + ((i * 13) % 200);
    const inT = new Date(Date.UTC(2150, 0, 1 + i, 8));
    const outT = new Date(inT.getTime() + hours * 3_600_000);
    const died = age + hours / 10 > 85 + (i % 3) * 5 ? 1 : 0;
    lines.push(
      [
        10000 + i,
        20000 + i,
        30000 + i,
        i % 2 ? 'MICU' : 'SICU',
        inT.toISOString(),
        outT.toISOString(),
        age,
        i % 2 ? 'F' : 'M',
        died,
      ].join(','),
    );
  }
  return lines.join('\n');
}
