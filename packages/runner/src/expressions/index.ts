export { fromExpressionData, toExpressionData } from "./convert.js";
export {
  conditionUsesStatusFunction,
  type ExpressionContext,
  evaluateCondition,
  evaluateValue,
  type PreviousItem,
} from "./evaluate.js";
export { ExpressionError } from "./expression-error.js";
export { CONTEXT_NAMES, parseExpression } from "./parse-expression.js";
export {
  collectReferencePaths,
  collectReferences,
  containsExpression,
  forEachExpression,
  type ReferencePath,
} from "./references.js";
export {
  conditionAsTemplate,
  splitTemplate,
  type TemplateSegment,
  wholeExpression,
} from "./template.js";
