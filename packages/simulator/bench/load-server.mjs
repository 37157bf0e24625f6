// @ts-check
// The simulator under load, in its own process so its memory is measured alone.
// Started by load.mjs over IPC: sends { url, apiKey }, then on "stop" sends its stats and peak RSS.
import { startSimulator } from "../dist/index.js";

const options = JSON.parse(process.argv[2] ?? "{}");
const simulator = await startSimulator(options);
process.send?.({ type: "ready", url: simulator.url, apiKey: simulator.apiKey });
process.on("message", async (message) => {
  if (message !== "stop") return;
  const stats = simulator.stats();
  const peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  await simulator.close();
  process.send?.({ type: "stopped", stats, peakRssMiB }, () => process.exit(0));
});
