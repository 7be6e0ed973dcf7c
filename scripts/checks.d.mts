/** `npm test`'s static checks (scripts/checks.mjs): each a script node runs and its arguments. */
export declare const CHECKS: readonly (readonly string[])[];
/** Runs the checks at the same time; resolves to 1 if any of them failed, else 0. */
export declare function runChecks(
  checks?: readonly (readonly string[])[],
  out?: { write(chunk: string | Uint8Array): unknown },
): Promise<0 | 1>;
