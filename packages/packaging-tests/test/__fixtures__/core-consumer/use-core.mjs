// @reelsmith/core loaded with import, as an ES module program does.
import { fileURLToPath } from "node:url";
import * as core from "@reelsmith/core";
import * as catalog from "@reelsmith/core/catalog";
import * as errors from "@reelsmith/core/errors";
import useCore from "./scenario.cjs";

const result = await useCore(core);
console.log(
  JSON.stringify({
    loadedFrom: fileURLToPath(import.meta.resolve("@reelsmith/core")),
    catalogSharesErrors: catalog.InvalidRequestError === errors.InvalidRequestError,
    ...result,
  }),
);
