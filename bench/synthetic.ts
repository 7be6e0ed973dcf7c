/**
 * Synthetic content at a chosen scale: projects × components × languages,
 * with realistic field values and consistent counters, the same for the same
 * seed. Used by the benchmark; writes a content folder like a user's. For
 * the 2026.8 flavour each project also has two categories, one inside the
 * other, holding two thirds of its components, and fuzzy strings count their
 * characters; the rest (and every random draw) is the same as for 4.x.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hasTrait, type Release } from '../src/model/releases.ts';
import { seededRandom } from './random.ts';

export interface SyntheticScale {
  projects: number;
  components: number;
  languages: number;
  seed?: number;
  /** The release the content is written for (4 unless told). */
  weblateVersion?: Release;
  /** Whether the tree holds the status site (on unless told: the web URL is the base URL). */
  pages?: boolean;
  /** Which widget folders hold the PNG widgets (`projects` unless told). */
  pngWidgets?: 'projects' | 'all';
}

/** Languages a large instance translates into, right-to-left and `@` codes among them. */
const LANGUAGES = [
  'cs',
  'de',
  'fr',
  'es',
  'it',
  'pt_BR',
  'ja',
  'zh_Hans',
  'ru',
  'pl',
  'ar',
  'he',
  'ca@valencia',
  'nl',
  'sv',
  'fi',
  'da',
  'nb_NO',
  'tr',
  'uk',
  'ko',
  'hu',
  'el',
  'ro',
  'bg',
  'sk',
  'sl',
  'hr',
  'sr',
  'lt',
  'lv',
  'et',
  'fa',
  'hi',
  'bn',
  'ta',
  'th',
  'vi',
  'id',
  'ms',
  'zh_Hant',
  'pt',
  'gl',
  'eu',
  'ca',
  'is',
  'ga',
  'cy',
  'mk',
  'sq',
];
const FORMATS = [
  ['po', 'locale/*/LC_MESSAGES/messages.po', ''],
  ['aresource', 'app/src/main/res/values-*/strings.xml', 'app/src/main/res/values/strings.xml'],
  ['strings-utf8', 'ios/*.lproj/Localizable.strings', 'ios/en.lproj/Localizable.strings'],
  ['json', 'locales/*.json', 'locales/en.json'],
] as const;
const AUTHORS = [
  'Jana Nováková',
  'Lukas Becker',
  'Camille Martin',
  'Layla Haddad',
  'Noa Levi',
  'Ana Souza',
  '山田 太郎',
  'Pau Ferrer',
];

/** The total number of translations a scale gives (source translations included). */
export function translationCount(scale: SyntheticScale): number {
  return scale.projects * scale.components * (scale.languages + 1);
}

/** The scale that gives about `translations` translations with 50 components of 10 languages per project. */
export function scaleFor(translations: number): SyntheticScale {
  const perProject = 50 * 11;
  return {
    projects: Math.max(1, Math.round(translations / perProject)),
    components: 50,
    languages: 10,
  };
}

/** Writes a content folder; returns the number of files written. */
export async function writeSyntheticContent(dir: string, scale: SyntheticScale): Promise<number> {
  if (scale.languages > LANGUAGES.length) throw new Error(`at most ${LANGUAGES.length} languages`);
  const random = seededRandom(scale.seed ?? 1);
  const version = scale.weblateVersion ?? '4';
  const current = hasTrait(version, 'shapes5');
  await mkdir(join(dir, 'projects'), { recursive: true });
  const flavour = version === '4' ? '' : `weblate_version: "${version}"\n`;
  const pages = scale.pages === false ? 'pages: false\n' : '';
  const pngs = scale.pngWidgets === 'all' ? 'png_widgets: all\n' : '';
  await writeFile(
    join(dir, 'site.yaml'),
    `base_url: https://l10n.example.org\npage_size: 50\n${flavour}${pages}${pngs}`,
  );
  let files = 1;
  for (let p = 1; p <= scale.projects; p++) {
    const project = `project-${String(p).padStart(5, '0')}`;
    const folder = join(dir, 'projects', project);
    await mkdir(join(folder, 'components'), { recursive: true });
    await writeFile(join(folder, 'project.yaml'), projectYaml(p, random));
    files++;
    if (current) files += await writeCategories(folder);
    const texts: [string, string][] = [];
    for (let c = 1; c <= scale.components; c++) {
      const component = `component-${String(c).padStart(3, '0')}`;
      texts.push([
        join(folder, 'components', `${component}.yaml`),
        componentYaml(project, c, scale.languages, random, current),
      ]);
    }
    await Promise.all(texts.map(([file, text]) => writeFile(file, text)));
    files += texts.length;
  }
  return files;
}

// --- internal ---

/** Two categories of a project, `guides` inside `docs` (2026.8). */
async function writeCategories(folder: string): Promise<number> {
  await mkdir(join(folder, 'categories'), { recursive: true });
  await writeFile(join(folder, 'categories', 'docs.yaml'), 'name: Docs\n');
  await writeFile(join(folder, 'categories', 'guides.yaml'), 'name: Guides\nparent: docs\n');
  return 2;
}

/** Where a component sits in the 2026.8 content: a third at the top, a third in `docs`, a third in `docs/guides`. */
function categoryOf(index: number, glossary: boolean): string {
  if (glossary || index % 3 === 0) return '';
  return `category: ${index % 3 === 1 ? 'docs' : 'guides'}`;
}

function projectYaml(index: number, random: () => number): string {
  const review = random() < 0.3;
  return [
    `name: Project ${index}`,
    `web: https://project-${index}.example.org`,
    review ? 'translation_review: true' : '',
    `instructions: Keep placeholders such as %s untouched.`,
    '',
  ]
    .filter((line, i, all) => line !== '' || i === all.length - 1)
    .join('\n');
}

function componentYaml(
  project: string,
  index: number,
  languages: number,
  random: () => number,
  current: boolean,
): string {
  const [format, filemask, template] = FORMATS[index % FORMATS.length]!;
  const glossary = index === 1;
  const total = 20 + Math.floor(random() * 2000);
  const words = total * (3 + Math.floor(random() * 8));
  const chars = words * (5 + Math.floor(random() * 3));
  const lines = [
    `name: Component ${index}`,
    'source_language: en',
    glossary ? 'vcs: local' : 'vcs: git',
    glossary ? 'repo: "local:"' : `repo: https://git.example.org/${project}.git`,
    glossary ? '' : 'branch: main',
    `filemask: "${glossary ? '*.tbx' : filemask}"`,
    glossary || !template ? '' : `template: ${template}`,
    `file_format: ${glossary ? 'tbx' : format}`,
    glossary ? 'is_glossary: true' : '',
    'license: MIT',
    current ? categoryOf(index, glossary) : '',
    'source:',
    `  total: ${total}`,
    `  total_words: ${words}`,
    `  total_chars: ${chars}`,
    'translations:',
  ].filter(Boolean);
  for (const code of LANGUAGES.slice(0, languages))
    lines.push(...translationYaml(code, total, words, chars, random, current));
  return lines.join('\n') + '\n';
}

function translationYaml(
  code: string,
  total: number,
  words: number,
  chars: number,
  random: () => number,
  current: boolean,
): string[] {
  const share = random();
  const translated = Math.floor(total * share);
  const fuzzy = Math.floor((total - translated) * random() * 0.3);
  const changed = translated + fuzzy > 0;
  const lines = [
    `  ${code}:`,
    `    translated: ${translated}`,
    `    translated_words: ${Math.floor(words * share)}`,
    `    translated_chars: ${Math.floor(chars * share)}`,
  ];
  if (fuzzy)
    lines.push(
      `    fuzzy: ${fuzzy}`,
      `    fuzzy_words: ${Math.min(fuzzy * 3, words - Math.floor(words * share))}`,
    );
  if (fuzzy && current)
    lines.push(`    fuzzy_chars: ${Math.min(fuzzy * 15, chars - Math.floor(chars * share))}`);
  const failing = Math.floor(translated * random() * 0.05);
  if (failing)
    lines.push(
      `    failing_checks: ${failing}`,
      `    failing_checks_words: ${Math.min(failing * 4, words)}`,
    );
  if (random() < 0.4)
    lines.push(`    have_suggestion: ${Math.floor(random() * Math.min(total, 20))}`);
  if (random() < 0.2) lines.push(`    have_comment: ${Math.floor(random() * Math.min(total, 5))}`);
  if (changed) {
    const when = new Date(
      Date.UTC(2022, 0, 1) +
        Math.floor(random() * 3 * 365 * 86400) * 1000 +
        Math.floor(random() * 1000),
    );
    const micro = String(Math.floor(random() * 1e6)).padStart(6, '0');
    lines.push(`    last_change: ${when.toISOString().slice(0, 19)}.${micro}Z`);
    lines.push(`    last_author: ${AUTHORS[Math.floor(random() * AUTHORS.length)]}`);
    lines.push(`    recent_changes: ${Math.floor(random() * 5)}`);
  }
  const hex = () =>
    Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  lines.push(`    revision: ${hex()}${hex()}${hex()}${hex()}${hex()}`);
  return lines;
}
