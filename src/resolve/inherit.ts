/**
 * Inherited settings (2026.8): what a project, a category and a component
 * show of the settings Weblate lets a child take from its parent. A child's
 * effective value is its parent's effective value while its `inherit_*`
 * switch is on, else its own (trans/models: Component and Category
 * get_effective_setting); check flags merge the parent's, the file format's
 * and the own (Component.all_flags).
 */
import {
  INHERITABLE_DEFAULTS_2026,
  INHERITABLE_SETTINGS,
  type InheritableSetting,
} from '../model/defaults.ts';
import { mergeFlags, parseFlags } from '../model/flags.ts';
import type { Inherited, InheritableValues } from '../model/types.ts';
import type { Problem } from '../content/problems.ts';
import type { LanguageResolver } from './languages.ts';

export interface InheritableInput {
  /** The own values the file gives (a secondary language resolved). */
  given: Partial<InheritableValues>;
  /** The `inherit_*` switches the file gives. */
  switches: Partial<Record<InheritableSetting, boolean>>;
  /** The own values of settings the file leaves out, where they differ from today's defaults (a glossary's new_lang). */
  defaults?: Partial<InheritableValues>;
  checkFlags: string;
}

/**
 * The settings of an object under `parent` (null for a project). A switch the
 * file leaves out is on when the file leaves the setting out too, as Weblate's
 * API creates categories and components; a project has no parent (a snapshot
 * has no workspaces), so its switches are off unless the file turns them on.
 */
export function inheritSettings(
  input: InheritableInput,
  parent: Inherited | null,
  formatFlags = '',
): Inherited {
  const own = {} as Record<InheritableSetting, unknown>;
  const inherit = {} as Record<InheritableSetting, boolean>;
  const effective = {} as Record<InheritableSetting, unknown>;
  for (const setting of INHERITABLE_SETTINGS) {
    const given = input.given[setting];
    own[setting] =
      given !== undefined
        ? given
        : (input.defaults?.[setting] ?? INHERITABLE_DEFAULTS_2026[setting]);
    inherit[setting] = input.switches[setting] ?? (parent !== null && given === undefined);
    effective[setting] = parent && inherit[setting] ? parent.effective[setting] : own[setting];
  }
  return {
    own: own as InheritableValues,
    inherit,
    effective: effective as InheritableValues,
    checkFlags: input.checkFlags,
    effectiveCheckFlags: mergeFlags([
      parent?.effectiveCheckFlags ?? '',
      formatFlags,
      input.checkFlags,
    ]),
  };
}

/** The settings a project or a category file gives: the inheritable ones by name, `inherit_<name>`, `check_flags`. */
type SettingsFile = {
  [K in InheritableSetting | `inherit_${InheritableSetting}` | 'check_flags']?:
    string | boolean | undefined;
};

/**
 * The inheritable settings a project or category file gives, its secondary
 * language resolved (reported when unknown; not looked up without a
 * resolver, in the 4 flavour, where the setting itself is the error).
 */
export function inheritableInput(
  data: SettingsFile,
  file: string,
  languages: LanguageResolver | null,
  problems: Problem[],
): InheritableInput {
  const given: Partial<Record<InheritableSetting, unknown>> = {};
  const switches: Partial<Record<InheritableSetting, boolean>> = {};
  for (const setting of INHERITABLE_SETTINGS) {
    const value = data[setting];
    const switched = data[`inherit_${setting}`];
    if (typeof switched === 'boolean') switches[setting] = switched;
    if (typeof value !== 'string') continue;
    if (setting !== 'secondary_language') given[setting] = value;
    else if (languages)
      given[setting] = languages.resolve(value, file, [setting], problems) ?? undefined;
  }
  return {
    given: given as InheritableInput['given'],
    switches,
    checkFlags: typeof data.check_flags === 'string' ? data.check_flags : '',
  };
}

/** Reports check flags Weblate could not read (2026.8 merges them into `effective_check_flags`). */
export function checkCheckFlags(text: string | undefined, file: string, problems: Problem[]): void {
  if (text === undefined) return;
  const parsed = parseFlags(text);
  if (!parsed.ok) {
    problems.push({
      file,
      path: ['check_flags'],
      message: `expected check flags such as "max-length:100, safe-html" (got ${JSON.stringify(text)}: ${parsed.reason})`,
    });
  }
}
