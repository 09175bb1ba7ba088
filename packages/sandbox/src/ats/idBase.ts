/**
 * The first id of each kind of ATS record. Generated records count up from here, and so do the
 * records the API creates later (through `AtsState.next`), so the ranges never meet and an id alone
 * says what kind of record it is.
 */
export const ID_BASE = {
  user: 4001,
  job: 3001,
  stage: 61000,
  step: 81000,
  candidate: 200001,
  application: 500001,
  note: 7000001,
  email: 7100001,
  activity: 8000001,
  scorecard: 9000001,
  interview: 9500001,
  offer: 9800001,
  file: 900001
} as const
