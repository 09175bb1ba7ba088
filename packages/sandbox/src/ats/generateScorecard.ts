import type { Rng } from "../prng.js"
import type { ApplicationRec, AtsState } from "./data.js"
import type { InterviewStepRec } from "./generateJobs.js"

/**
 * The scorecard an interviewer files after a held interview: a rating per attribute, an overall
 * recommendation, and answers to the step's questions. Made by generateInterview.
 */

export interface ScorecardRec {
  id: number
  application_id: number
  candidate_id: number
  step: { id: number; name: string }
  interviewed_at: number
  submitted_at: number
  created_at: number
  updated_at: number
  submitted_by_id: number
  interviewer_id: number
  overall_recommendation: string
  attributes: Array<{ name: string; type: string; note: string | null; rating: string }>
  questions: Array<{ id: number | null; question: string; answer: string }>
}

/** [attribute, the kind of attribute it is]: every generated scorecard rates these five. */
export const SCORECARD_ATTRIBUTES: ReadonlyArray<readonly [string, string]> = [
  ["Communication", "Skills"],
  ["Problem Solving", "Skills"],
  ["Technical Depth", "Qualifications"],
  ["Collaboration", "Personality Traits"],
  ["Ownership", "Personality Traits"]
]

const RATINGS = ["definitely_not", "no", "mixed", "yes", "strong_yes"] as const

/** Files the scorecard for an interview that ran from start to end; returns its id. */
export const generateScorecard = (
  state: AtsState,
  rng: Rng,
  app: ApplicationRec,
  step: InterviewStepRec,
  start: number,
  end: number,
  interviewerId: number
): number => {
  const scorecardId = state.next.scorecard++
  const submitted = end + rng.int(1, 20) * 3600000
  const attributes = SCORECARD_ATTRIBUTES.map(([name, type]) => ({
    name,
    type,
    note: rng.chance(0.3) ? `${name}: ${rng.pick(["solid", "impressive", "needs growth", "average"])}` : null,
    rating: rng.pick(RATINGS)
  }))
  state.scorecards.set(scorecardId, {
    id: scorecardId,
    application_id: app.id,
    candidate_id: app.candidate_id,
    step: { id: step.id, name: step.name },
    interviewed_at: start,
    submitted_at: submitted,
    created_at: submitted,
    updated_at: submitted,
    submitted_by_id: interviewerId,
    interviewer_id: interviewerId,
    overall_recommendation: rng.pick(["definitely_not", "no", "yes", "strong_yes", "no_decision"]),
    attributes,
    questions: [
      { id: null, question: "Key Take-Aways", answer: rng.pick(["Clear thinker.", "Good fit for the team.", "Some gaps in depth.", "Would like a second opinion."]) },
      { id: null, question: "Private Notes", answer: "" },
      ...step.questions.map((question) => ({ id: question.id, question: question.question, answer: rng.pick(["Yes", "No", "Partially"]) }))
    ]
  })
  if (submitted > app.last_activity_at) app.last_activity_at = submitted
  return scorecardId
}
