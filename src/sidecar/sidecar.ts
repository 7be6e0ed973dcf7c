/**
 * Starting the sidecar: the content opened as a session (its tree brought in
 * line first), the app, and the server. A missing key, invalid content or a
 * busy port is a value, not a throw.
 */
import { checkOutput } from '../build.ts';
import type { SettingsOverrides } from '../resolve/resolve.ts';
import type { ContentError } from '../errors.ts';
import { loadCatalog } from '../catalog/catalog.ts';
import { INSTANCE_LIST_DELAY_MS, Session } from '../session/session.ts';
import { createSidecarApp } from './app.ts';
import { createKeyring, TOKENS_VARIABLE } from './auth.ts';
import { listen } from './listen.ts';
import { basePath } from '../api/urls.ts';
import { describeSettingsInEffect } from '../tree/settings.ts';

interface SidecarOptions {
  contentDir: string;
  outDir: string;
  /** Settings that win over site.yaml, as build takes them. */
  settings?: SettingsOverrides;
  /** Address to bind; 127.0.0.1 unless told otherwise. */
  bind?: string;
  /** 0 picks a free port. */
  port: number;
  /** API keys that may write. */
  keys: readonly string[];
  /** Rewrite the tree whole when it was built with other settings (else the sidecar refuses to start). */
  rebuild?: boolean | undefined;
  /** Replace the output folder even when it holds files this tool did not write. */
  force?: boolean | undefined;
  /** Serve the tree and refuse every write (no key needed to start). */
  readOnly?: boolean;
  /**
   * Answer a write only once the instance-wide lists are rewritten too. By
   * default they follow once writes pause (INSTANCE_LIST_DELAY_MS).
   */
  strictLists?: boolean;
  /** Wrong keys one client address may send in a minute before it is answered 429 (0: no limit). */
  keyFailures?: number | undefined;
  /** How soon a whole request must arrive (20 s unless told); its headers, within half of it. */
  requestTimeoutMs?: number | undefined;
  /** Where failures inside requests are reported. */
  log?: (text: string) => void;
}

interface Sidecar {
  /** The API root as served: `http://127.0.0.1:8080/api/`. */
  url: string;
  /** Stops taking requests, lets those in progress finish, and closes the session. */
  close(): Promise<void>;
}

type StartResult =
  { ok: true; sidecar: Sidecar } | { ok: false; message: string; errors?: ContentError[] };

export async function startSidecar(options: SidecarOptions): Promise<StartResult> {
  if (options.keys.length === 0 && !options.readOnly) {
    return {
      ok: false,
      message: `No API key: give --tokens-file FILE or set ${TOKENS_VARIABLE}, or start with --read-only to refuse every write.`,
    };
  }
  const output = await checkOutput(options.outDir, {
    contentDir: options.contentDir,
    force: options.force,
  });
  if (!output.ok) return { ok: false, message: output.message };
  const catalog = loadCatalog();
  const log = options.log ?? (() => undefined);
  const opened = await Session.open({
    contentDir: options.contentDir,
    outDir: options.outDir,
    settings: options.settings ?? {},
    catalog,
    ...(options.strictLists ? {} : { instanceListDelay: INSTANCE_LIST_DELAY_MS }),
    rebuild: options.rebuild ?? false,
    holder: 'the sidecar',
    onSettingsChange: (change) =>
      log(
        `${options.outDir}/ was built with other settings (${change}): writing a whole new tree.\n`,
      ),
  });
  if (!opened.ok && 'locked' in opened) return { ok: false, message: opened.locked };
  if (!opened.ok && 'settingsChange' in opened) {
    const message =
      `${options.outDir}/ was built with other settings (${opened.settingsChange}); the sidecar would rewrite the whole tree. ` +
      "Start it without those flags to keep the tree's settings, or add --rebuild to rewrite it.";
    return { ok: false, message };
  }
  if (!opened.ok)
    return {
      ok: false,
      message: 'The content has errors; nothing is served.',
      errors: opened.errors,
    };
  const { session } = opened;
  const said = opened.settings && describeSettingsInEffect(options.outDir, opened.settings);
  if (said) log(`${said}\n`);
  const app = createSidecarApp({
    session,
    catalog,
    keyring: createKeyring(options.keys),
    readOnly: options.readOnly ?? false,
    keyFailures: options.keyFailures,
    ...(options.log ? { log: options.log } : {}),
  });
  const started = await listen(app, {
    bind: options.bind ?? '127.0.0.1',
    port: options.port,
    version: session.model.settings.weblateVersion,
    requestTimeoutMs: options.requestTimeoutMs,
    ...(options.log ? { log: options.log } : {}),
  });
  if (!started.ok) {
    await session.close();
    return started;
  }
  const { listening } = started;
  return {
    ok: true,
    sidecar: {
      url: `${listening.origin}${basePath(session.model.settings)}/api/`,
      close: async () => {
        await listening.close();
        await session.close();
      },
    },
  };
}
