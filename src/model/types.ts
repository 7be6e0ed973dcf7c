/**
 * The validated model: what the content describes, with every default
 * applied, every reference resolved and every id assigned. Read-only once
 * built; lists are sorted as Weblate lists them (by id; languages by code).
 */
import type { Counters } from './statistics.ts';
import type {
  COMPONENT_FIELD_DEFAULTS,
  COMPONENT_FIELD_DEFAULTS_2026,
  PROJECT_FIELD_DEFAULTS_2026,
  InheritableSetting,
} from './defaults.ts';
import type { Release } from './releases.ts';

export interface Settings {
  /** Base of API links, without a trailing slash: `https://l10n.example.org` (the API is at `<baseUrl>/api/`). */
  baseUrl: string;
  /** Base of web links (`web_url`, `share_url`, `translate_url`), without a trailing slash. */
  webUrl: string;
  pageSize: number;
  pagination: 'path' | 'query';
  /** Which Weblate release's API the snapshot speaks (model/releases.ts). */
  weblateVersion: Release;
  /** Whether the tree holds the status site at the web paths (on by default when the web links point at the snapshot). */
  pages: boolean;
  /** Which widget folders hold the PNG widgets: a project's only, or every object's (each PNG costs milliseconds). */
  pngWidgets: 'projects' | 'all';
  /** Where translating happens (a Weblate instance's web URL), for the status site's translate pages to link to; null: not said. */
  editUrl: string | null;
  /** The instance's name, on every page of the status site and in its titles; null: not said (a default is shown). */
  title: string | null;
}

export interface Plural {
  id: number;
  source: number;
  number: number;
  formula: string;
  type: number;
}

export interface Language {
  /** The database id the 2026.8 flavour shows: catalog order for catalog languages (a fresh install's), else given or derived. */
  id: number;
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
  /** The settings only the 2026.8 flavour shows (its defaults in the 4 flavour, where they are not shown). */
  current: ProjectSettings;
  /** The inheritable settings: the project's own are its effective ones (a snapshot has no workspaces). */
  inherited: Inherited;
  /** The project's own components, by id. */
  components: Component[];
  /** The project's categories, by id (the 2026.8 flavour only). */
  categories: Category[];
  file: string;
}

type ProjectSettings = {
  -readonly [K in keyof typeof PROJECT_FIELD_DEFAULTS_2026]: Widen<
    (typeof PROJECT_FIELD_DEFAULTS_2026)[K]
  >;
};

/** The values of the inheritable settings (a language for `secondary_language`). */
export type InheritableValues = {
  [K in InheritableSetting]: K extends 'secondary_language' ? Language | null : string;
};

/**
 * The inheritable settings of a project, category or component (2026.8): its
 * own values, its `inherit_*` switches, and the values in effect (the
 * parent's effective value where the switch is on). Check flags too: the
 * effective ones merge the parent's, the file format's and the own.
 */
export interface Inherited {
  own: InheritableValues;
  inherit: Record<InheritableSetting, boolean>;
  effective: InheritableValues;
  checkFlags: string;
  /** `effective_check_flags` as Weblate formats it: sorted, `, ` between flags. */
  effectiveCheckFlags: string;
}

/** A category of a project (2026.8): components and categories may sit inside one. */
export interface Category {
  id: number;
  slug: string;
  name: string;
  project: Project;
  /** The category it sits in, or null at the top of the project. */
  parent: Category | null;
  /** The slugs from the top category down to this one. */
  path: readonly string[];
  inherited: Inherited;
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
export type ComponentSettings = {
  -readonly [K in keyof typeof COMPONENT_FIELD_DEFAULTS]: Widen<
    (typeof COMPONENT_FIELD_DEFAULTS)[K]
  >;
} & {
  -readonly [K in keyof typeof COMPONENT_FIELD_DEFAULTS_2026]: Widen<
    (typeof COMPONENT_FIELD_DEFAULTS_2026)[K]
  >;
};

export interface Component {
  slug: string;
  id: number;
  name: string;
  project: Project;
  sourceLanguage: Language;
  /** The category it sits in (2026.8), or null. */
  category: Category | null;
  settings: ComponentSettings;
  /** The inheritable settings (2026.8): the own values are `settings`' with today's message defaults. */
  inherited: Inherited;
  /** `license_url` as the 4 flavour shows it: from the content, else derived from the SPDX license id, else null. */
  licenseUrl: string | null;
  /** `license_url` as the 2026.8 flavour shows it: from the content, else derived from the effective license. */
  licenseUrl2026: string | null;
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

/** A file of the content's `extra/` folder, published at the same path from the tree's root. */
export interface ExtraFile {
  /** Relative to `extra/` and to the tree's root, with `/`. */
  path: string;
  bytes: Uint8Array;
  /** Of the bytes (content/signatures.ts). */
  hash: string;
}

export interface Model {
  settings: Settings;
  /** Published languages (those with a translation, and those defined in content/languages/), by code. */
  languages: Language[];
  projects: Project[];
  /** Every category (2026.8), by id. */
  categories: Category[];
  components: Component[];
  translations: Translation[];
  /** The content's extra files (`extra/`), by path; absent when it has none. */
  extras?: readonly ExtraFile[];
}
