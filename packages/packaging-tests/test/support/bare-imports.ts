import { builtinModules } from "node:module";
import ts from "typescript";

const builtins = new Set(builtinModules);

/**
 * The packages a JavaScript or declaration file imports (static `import`/`export … from`,
 * `import()`, `require()`, `/// <reference types>`), by package name; relative paths and
 * Node's built-in modules left out.
 *
 * @example
 * importedPackages('import { Ajv } from "ajv"; import fs from "node:fs"; import("./x.js");');
 * // ["ajv"]
 */
export function importedPackages(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  const specifiers = [
    ...info.importedFiles.map((reference) => reference.fileName),
    ...info.typeReferenceDirectives.map((reference) => reference.fileName),
  ];
  const names = new Set<string>();
  for (const specifier of specifiers) {
    if (specifier.startsWith(".") || specifier.startsWith("/")) continue;
    if (specifier.startsWith("node:") || builtins.has(specifier.split("/")[0] ?? "")) continue;
    const parts = specifier.split("/");
    names.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier));
  }
  return [...names].sort();
}
