/**
 * The flags a thread of ours starts with. Each thread's source is a CommonJS string, evaluated
 * (`new Worker(source, { eval: true })`), so that it runs the same under tsx, vitest or the
 * compiled package; a thread takes the process's flags, and under `node --input-type=module -e …`
 * (or `--experimental-default-type=module`) its source was read as a module, where `require` is
 * not defined: the content's check fell back to the main thread and a build into a folder never
 * ended. Under those flags, the threads start with the process's flags less those; otherwise
 * (undefined) they inherit the process's, as Node gives them: a list given explicitly is checked,
 * and one with a flag a thread cannot take (`--expose-gc`) fails the thread's start.
 */
export function threadFlags(execArgv: readonly string[] = process.execArgv): string[] | undefined {
  const flags: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    const name = /^--(input-type|experimental-default-type)(=|$)/.exec(flag);
    if (!name) flags.push(flag);
    // `--input-type module`: the value is the next argument.
    else if (name[2] === '') i++;
  }
  return flags.length === execArgv.length ? undefined : flags;
}
