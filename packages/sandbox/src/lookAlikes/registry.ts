import { ashbyLookAlike } from "../ashby/ashbyLookAlike.js"
import { recruiteeLookAlike } from "../recruitee/lookAlike.js"
import { smartRecruitersLookAlike } from "../smartrecruiters/smartRecruitersLookAlike.js"
import { teamtailorLookAlike } from "../teamtailor/teamtailorLookAlike.js"
import { workableLookAlike } from "../workable/lookAlike.js"
import type { LookAlike } from "./LookAlike.js"

/** The look-alikes `startSandbox` starts, one line each. */
export const LOOK_ALIKES: ReadonlyArray<LookAlike> = [
  ashbyLookAlike,
  workableLookAlike,
  smartRecruitersLookAlike,
  teamtailorLookAlike,
  recruiteeLookAlike
]
