import { ashbyLookAlike } from "../ashby/ashbyLookAlike.js"
import { workableLookAlike } from "../workable/workableLookAlike.js"
import type { LookAlike } from "./LookAlike.js"

/** The look-alikes `startSandbox` starts, one line each. */
export const LOOK_ALIKES: ReadonlyArray<LookAlike> = [ashbyLookAlike, workableLookAlike]
