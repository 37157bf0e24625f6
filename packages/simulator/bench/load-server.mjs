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
  const { user, system } = process.cpuUsage();
  const cpuSeconds = Math.round((user + system) / 10_000) / 100;
  await simulator.close();
  process.send?.({ type: "stopped", stats, peakRssMiB, cpuSeconds }, () => process.exit(0));
});
