// Imports every entry point named on the command line, as an ES module program does, and
// prints how many exports each has (JSON entry points with the json import attribute).
const loaded = {};
for (const specifier of process.argv.slice(2)) {
  const module = specifier.endsWith(".json")
    ? await import(specifier, { with: { type: "json" } })
    : await import(specifier);
  loaded[specifier] = Object.keys(specifier.endsWith(".json") ? module.default : module).length;
}
console.log(JSON.stringify(loaded));
