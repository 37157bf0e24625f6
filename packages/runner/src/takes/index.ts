export { openRun } from "./open-run.js";
export { checkPick, type PickRequest, pickTake, streamPick } from "./pick-take.js";
export { checkRetake, type RetakeRequest, retakeItem, streamRetake } from "./retake-item.js";
export { damagedTakeFiles, takeFilePath } from "./take-files.js";
export { currentTake, takesOf } from "./take-state.js";
export { findTakeUnit, type TakeTarget, type TakeUnit } from "./take-unit.js";
