/**
 * A project's widgets page (`/widgets/<p>/`, as in Weblate): each widget the
 * tree holds for the project, its components and its languages, shown with
 * the HTML, Markdown and reStructuredText that embed it, in read-only text
 * boxes to copy from. One page lists every combination, so it works without
 * script and on any static host. Pure: the model in, HTML text out.
 */
import type { Aggregates } from '../model/aggregates.ts';
import type { Component, Language, Model, Project, Settings } from '../model/types.ts';
import { compareStrings } from '../errors.ts';
import {
  apiPath,
  basePath,
  bitmapFile,
  chartFile,
  componentWebPath,
  matrixFile,
  statusSitePath,
  webPath,
  BADGE_FILE,
  BITMAP_COLORS,
  BITMAP_SIZES,
  CHART_COLORS,
  CHART_KINDS,
  LANGUAGE_BADGE_FILE,
  OPEN_GRAPH_FILE,
  PNG_BADGE_FILE,
} from '../api/urls.ts';
import { escapeHtml, renderPage } from './html.ts';
import { badgeAlt, projectLanguageWebPath, siteTitle, widgetFolder } from './pages.ts';
import { widgetSums, widgetTotal } from './widget-sums.ts';
import { emptyCounters } from '../model/statistics.ts';
import { projectHasReview } from '../model/aggregates.ts';

/** What the page is rendered from: the model and its sums. */
interface WidgetsPageContext {
  model: Model;
  aggregates: Aggregates;
}

/** One widget as the page offers it: what it is, its image's web path, and the page it links to. */
interface WidgetChoice {
  name: string;
  image: string;
  /** The web path of the page the snippet links to. */
  target: string;
  /** The image's size on the page, when known. */
  size?: readonly [width: number, height: number];
  /** The same widget in its other colors: the snippets name the first, and the rest are linked. */
  others?: readonly { color: string; image: string }[];
  /** The image's text alternative, when it says more than its name (a badge: its own label). */
  alt?: string;
}

/** `/widgets/<p>/`: every widget of the project, its components and its languages, with snippets. */
export function widgetsPage(context: WidgetsPageContext, project: Project): string {
  const settings = context.model.settings;
  const base = basePath(settings);
  const review = projectHasReview(project);
  const section = (id: string, heading: string, choices: readonly WidgetChoice[]) =>
    `<section aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>\n` +
    choices.map((choice, i) => widgetEntry(settings, `${id}-${i}`, choice)).join('') +
    `</section>\n`;
  const languages = [...context.aggregates.projectLanguages(project).keys()].sort((a, b) =>
    compareStrings(a.name, b.name),
  );
  const components = [...project.components].sort((a, b) => compareStrings(a.name, b.name));
  return renderPage({
    title: `Widgets of ${project.name}`,
    site: siteTitle(settings),
    stylesheet: base + statusSitePath.stylesheet(),
    crumbs: [
      { name: siteTitle(settings), href: `${base}/` },
      { name: project.name, href: base + webPath.project(project.slug) },
      { name: 'Widgets' },
    ],
    api: { href: base + apiPath.project(project.slug), label: 'This project' },
    body:
      `<p>Show the translation status of ${escapeHtml(project.name)} in a README or on a website: ` +
      `copy the HTML, Markdown or reStructuredText under an image. Each image links to its status page.</p>\n` +
      section(
        'project',
        'The project',
        projectWidgets(
          settings,
          project,
          badgeAlt(widgetTotal(settings, context.aggregates, project), review),
        ),
      ) +
      section(
        'components',
        'Components',
        components.flatMap((c) =>
          componentWidgets(settings, c, badgeAlt(context.aggregates.component(c), review)),
        ),
      ) +
      section(
        'languages',
        'Languages',
        languages.flatMap((l) =>
          languageWidgets(
            settings,
            project,
            l,
            badgeAlt(
              widgetSums(settings, context.aggregates, project).get(l) ?? emptyCounters(),
              review,
            ),
          ),
        ),
      ),
  });
}

/**
 * Every widget of the project's own folder, in Weblate's order: badges,
 * charts, the matrix, bitmaps, the panel; a widget drawn in several colors
 * once, in its first, with links to the others.
 */
function projectWidgets(settings: Settings, project: Project, alt: string): WidgetChoice[] {
  const folder = widgetFolder(settings, project, null, null);
  const target = webPath.project(project.slug);
  const choice = (
    name: string,
    files: readonly string[],
    colors: readonly string[] = [],
    size?: readonly [number, number],
  ): WidgetChoice => ({
    name,
    image: folder + files[0]!,
    target,
    others: colors.slice(1).map((color, i) => ({ color, image: folder + files[i + 1]! })),
    ...(size ? { size } : {}),
  });
  return [
    { ...choice('Status badge', [BADGE_FILE]), alt },
    { ...choice('Status badge (PNG)', [PNG_BADGE_FILE]), alt },
    choice('Language badge', [LANGUAGE_BADGE_FILE]),
    ...CHART_KINDS.map((kind) =>
      choice(
        `${kind === 'multi' ? 'Vertical' : 'Horizontal'} language bar chart`,
        CHART_COLORS.map((color) => chartFile(kind, color)),
        CHART_COLORS,
      ),
    ),
    choice('Matrix', CHART_COLORS.map(matrixFile), CHART_COLORS),
    ...BITMAP_SIZES.map((size) =>
      choice(
        `${size === '287x66' ? 'Big' : 'Small'} status badge`,
        BITMAP_COLORS.map((color) => bitmapFile(size, color)),
        BITMAP_COLORS,
        size === '287x66' ? [287, 66] : [88, 31],
      ),
    ),
    choice('Panel (Open Graph image)', [OPEN_GRAPH_FILE], [], [600, 315]),
  ];
}

// --- internal ---

/** A component's badge, and its PNG widgets when the tree holds them (`png_widgets: all`). */
function componentWidgets(settings: Settings, component: Component, alt: string): WidgetChoice[] {
  const project = component.project;
  return folderWidgets(settings, {
    name: component.name,
    image: widgetFolder(settings, project, null, component),
    alt,
    target: webPath.component(project.slug, componentWebPath(component)),
    languageBadge: true,
  });
}

function languageWidgets(
  settings: Settings,
  project: Project,
  language: Language,
  alt: string,
): WidgetChoice[] {
  return folderWidgets(settings, {
    name: language.name,
    image: widgetFolder(settings, project, language, null),
    alt,
    target: projectLanguageWebPath(settings, project, language),
  });
}

/**
 * The badge of a widget folder (`image` names the folder), then the PNG
 * badge, the language badge (a component's) and the bitmap widgets it holds.
 */
function folderWidgets(
  settings: Settings,
  folder: WidgetChoice & { languageBadge?: true },
): WidgetChoice[] {
  const { languageBadge, ...choice } = folder;
  const badge = { ...choice, image: folder.image + BADGE_FILE };
  const languages = languageBadge
    ? [
        {
          name: `${folder.name}: language badge`,
          image: folder.image + LANGUAGE_BADGE_FILE,
          target: folder.target,
        },
      ]
    : [];
  if (settings.pngWidgets !== 'all') return [badge, ...languages];
  const bitmaps = BITMAP_SIZES.map((size): WidgetChoice => ({
    name: `${folder.name}: ${size === '287x66' ? 'big' : 'small'} status badge`,
    image: folder.image + bitmapFile(size, BITMAP_COLORS[0]),
    target: folder.target,
    size: size === '287x66' ? [287, 66] : [88, 31],
    others: BITMAP_COLORS.slice(1).map((color) => ({
      color,
      image: folder.image + bitmapFile(size, color),
    })),
  }));
  return [
    badge,
    { ...badge, name: `${folder.name} (PNG)`, image: folder.image + PNG_BADGE_FILE },
    ...languages,
    ...bitmaps,
  ];
}

/** A widget: its name, the image, and the three snippets, each in a labelled read-only box. */
function widgetEntry(settings: Settings, id: string, choice: WidgetChoice): string {
  // Where the tree is served, so a snippet always names a file it holds (the web URL, when the site is on).
  const image = settings.baseUrl + choice.image;
  const target = settings.baseUrl + choice.target;
  const snippets: [string, string][] = [
    ['HTML', `<a href="${target}"><img src="${image}" alt="Translation status" /></a>`],
    ['Markdown', `[![Translation status](${image})](${target})`],
    ['reStructuredText', `.. image:: ${image}\n   :alt: Translation status\n   :target: ${target}`],
  ];
  const size = choice.size ? ` width="${choice.size[0]}" height="${choice.size[1]}"` : '';
  const boxes = snippets
    .map(
      ([format, text]) =>
        `<p><label for="${id}-${format.toLowerCase()}">${format}</label>` +
        `<textarea id="${id}-${format.toLowerCase()}" readonly rows="${text.split('\n').length}">${escapeHtml(text)}</textarea></p>`,
    )
    .join('');
  const others = choice.others?.length
    ? `<p>Other colors (the same snippets with the file name changed): ${choice.others
        .map(({ color, image }) => `<a href="${basePath(settings)}${image}">${color}</a>`)
        .join(', ')}</p>`
    : '';
  return (
    `<div class="widget"><h3>${escapeHtml(choice.name)}</h3>` +
    `<p><img src="${basePath(settings)}${choice.image}" alt="${escapeHtml(choice.alt ?? choice.name)}"${size}></p>` +
    `${boxes}${others}</div>\n`
  );
}
