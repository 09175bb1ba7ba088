import { recruiteeLookAlike } from "../recruitee/lookAlike.js"
import type { LookAlike } from "./LookAlike.js"

/** The look-alikes `startSandbox` starts, one line each. */
export const LOOK_ALIKES: ReadonlyArray<LookAlike> = [recruiteeLookAlike]
