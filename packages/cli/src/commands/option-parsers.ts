import { InvalidArgumentError } from "commander";

/**
 * Commander argument parser for a whole number from 1 up.
 *
 * @example
 * command.option("--concurrency <n>", "steps at once", parsePositiveInteger);
 */
export function parsePositiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < 1) {
    throw new InvalidArgumentError(`expected a whole number from 1 up, got '${value}'.`);
  }
  return number;
}

/**
 * Commander argument parser for a port (0 picks a free one).
 *
 * @example
 * command.option("--port <n>", "port", parsePort);
 */
export function parsePort(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number > 65_535) {
    throw new InvalidArgumentError(`expected a port from 0 to 65535, got '${value}'.`);
  }
  return number;
}

/**
 * Commander argument parser for a number greater than 0.
 *
 * @example
 * command.option("--time-scale <x>", "speed", parsePositiveNumber);
 */
export function parsePositiveNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number <= 0) {
    throw new InvalidArgumentError(`expected a number greater than 0, got '${value}'.`);
  }
  return number;
}

/**
 * Commander argument parser for a whole number (any sign).
 *
 * @example
 * command.option("--seed <n>", "seed", parseInteger);
 */
export function parseInteger(value: string): number {
  const number = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(number)) {
    throw new InvalidArgumentError(`expected a whole number, got '${value}'.`);
  }
  return number;
}
