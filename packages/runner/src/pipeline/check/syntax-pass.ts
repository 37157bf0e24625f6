import { ExpressionError } from "../../expressions/expression-error.js";
import { parseExpression } from "../../expressions/parse-expression.js";
import type { CheckModel } from "./check-model.js";
import { walkExpressions } from "./expression-walker.js";

/** Syntax: every `${{ }}` of the document is closed and parses with GitHub's parser. */
export function syntaxPass(model: CheckModel): void {
  walkExpressions(
    model.data,
    [],
    ({ path, expression, index }) => {
      try {
        parseExpression(expression);
      } catch (error) {
        model.problems.push({
          path,
          expressionIndex: index,
          message: ExpressionError.isInstance(error) ? error.message : String(error),
          severity: "error",
          code: "expression_syntax",
          hint: "contexts: inputs, env, steps.<id>.outputs, item, index, run",
        });
      }
    },
    (error, text, path) => {
      const offset = (error as ExpressionError).offset ?? 0;
      model.problems.push({
        path,
        expressionIndex: text.slice(0, offset).split("${{").length - 1,
        message: (error as Error).message,
        severity: "error",
        code: "expression_syntax",
      });
    },
  );
}
