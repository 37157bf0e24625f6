"use strict";
// @reelsmith/core loaded with require, as a CommonJS program does (Node >= 20.19).
const core = require("@reelsmith/core");
const catalog = require("@reelsmith/core/catalog");
const errors = require("@reelsmith/core/errors");
const useCore = require("./scenario.cjs");

useCore(core).then(
  (result) => {
    console.log(
      JSON.stringify({
        loadedFrom: require.resolve("@reelsmith/core"),
        catalogSharesErrors: catalog.InvalidRequestError === errors.InvalidRequestError,
        ...result,
      }),
    );
  },
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
