/**
 * The validated model: what the content describes, with every default
 * applied, every reference resolved and every id assigned. Read-only once
 * built; lists are sorted as Weblate lists them (by id; languages by code).
 */
import type { Counters } from './statistics.ts';
import type { COMPONENT_FIELD_DEFAULTS, WeblateVersion } from './defaults.ts';

export interface Site {
  /** Base of API links, without a trailing slash: `https://l10n.example.org` (the API is at `<baseUrl>/api/`). */
  baseUrl: string;
  /** Base of web links (`web_url`, `share_url`, `translate_url`), without a trailing slash. */
  webUrl: string;
  pageSize: number;
  pagination: 'path' | 'query';
  /** Which Weblate's API the snapshot speaks. */
  weblateVersion: WeblateVersion;
  /** Whether the tree holds the status site at the web paths (on by default when the web links point at the snapshot). */
  pages: boolean;
}

export interface Plural {
  id: number;
  source: number;
  number: number;
  formula: string;
  type: number;
}

export interface Language {
  code: string;
  name: string;
  plural: Plural;
  aliases: readonly string[];
  direction: 'ltr' | 'rtl';
  population: number;
  /** Whether the code is in the built-in catalog (decides how project language entries name it). */
  inCatalog: boolean;
  /** The content file that defines or overrides it, if any. */
  file: string | null;
}

export interface Project {
  slug: string;
  id: number;
  name: string;
  web: string;
  translation_review: boolean;
  source_review: boolean;
  set_language_team: boolean;
  instructions: string;
  enable_hooks: boolean;
  language_aliases: string;
  /** The project's own components, by id. */
  components: Component[];
  file: string;
}

type Widen<T> = T extends string
  ? string
  : T extends boolean
    ? boolean
    : T extends number
      ? number
      : T extends readonly string[]
        ? readonly string[]
        : T extends null
          ? string
          : T;

/** The Component fields of the API that come straight from the content (or Weblate's defaults). */
export type ComponentSettings = { -readonly [K in keyof typeof COMPONENT_FIELD_DEFAULTS]: Widen<(typeof COMPONENT_FIELD_DEFAULTS)[K]> };

export interface Component {
  slug: string;
  id: number;
  name: string;
  project: Project;
  sourceLanguage: Language;
  settings: ComponentSettings;
  /** `license_url` as shown: from the content, else derived from the SPDX license id, else null. */
  licenseUrl: string | null;
  /** The component whose repository this one shares (`repo: weblate://project/component`). */
  linkedComponent: Component | null;
  locked: boolean;
  /** Projects this component is shared into, by id. */
  links: Project[];
  /** Every translation, the source one included, by id. */
  translations: Translation[];
  file: string;
  /** Digest of everything the component's file says of it (not of its translations). */
  contentFingerprint: number;
}

export interface Translation {
  id: number;
  component: Component;
  language: Language;
  /** The code used in the file name (`language_code`); may differ from `language.code`. */
  languageCode: string;
  filename: string;
  revision: string;
  isSource: boolean;
  isTemplate: boolean;
  counters: Counters;
  lastAuthor: string | null;
  /** Digest of everything the content says of this translation. */
  contentFingerprint: number;
}

export interface Model {
  site: Site;
  /** Published languages (those with a translation, and those defined in content/languages/), by code. */
  languages: Language[];
  projects: Project[];
  components: Component[];
  translations: Translation[];
}
