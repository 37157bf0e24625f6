#!/usr/bin/env node
import { runMain } from "./main.js";

await runMain(process.argv);
