/**
 * The status site as file groups (written when `settings.pages` is on): one
 * group per folder of a page, of an object's badge and charts, and of its
 * stats exports, keyed by that folder's web path, each with a fingerprint of
 * what its files show. A counter change renders again only the groups of the
 * objects whose figures it moves.
 */
import { projectHasReview, translationHasReview } from '../model/aggregates.ts';
import { Hasher } from '../model/fingerprint.ts';
import { hasTrait, type Release } from '../model/releases.ts';
import { widgetSums, widgetTotal } from '../status-site/widget-sums.ts';
import { emptyCounters, percent } from '../model/statistics.ts';
import type {
  Category,
  Component,
  Language,
  Model,
  Project,
  Settings,
  Translation,
} from '../model/types.ts';
import {
  categoryWebPath,
  chartFile,
  componentWebPath,
  statusSitePath,
  webPath,
  webUrl,
  bitmapFile,
  matrixFile,
  BADGE_FILE,
  BITMAP_COLORS,
  BITMAP_SIZES,
  CHART_COLORS,
  CHART_KINDS,
  LANGUAGE_BADGE_FILE,
  OPEN_GRAPH_FILE,
  PNG_BADGE_FILE,
  PROJECT_WIDGET_FILES,
} from '../api/urls.ts';
import { ShapedObject, type JsonValue } from '../output/serialize.ts';
import { compareStrings } from '../errors.ts';
import {
  renderBadge,
  renderCharts,
  renderLanguageBadge,
  renderMatrices,
  type ChartRow,
} from '../status-site/badges.ts';
import { preparePngs, renderPng, type PngStore } from '../status-site/png.ts';
import {
  renderBitmapWidget,
  renderOpenGraph,
  type WidgetFigures,
} from '../status-site/widget-images.ts';
import { widgetsPage } from '../status-site/widgets-page.ts';
import { withShareMeta } from '../status-site/share-meta.ts';
import { renderExportCsv, renderExportJson, type ExportKind } from '../status-site/exports.ts';
import {
  categoryPage,
  componentPage,
  homePage,
  languagePage,
  projectLanguagePage,
  projectLanguageWebPath,
  projectPage,
  translationFigures,
  translationPage,
  widgetFolder,
} from '../status-site/pages.ts';
import { STYLESHEET } from '../status-site/style.ts';
import type { Bodies } from '../api/bodies.ts';
import type { FileText } from '../output/serialize.ts';
import type { Aggregates } from '../model/aggregates.ts';
import type { Fingerprints } from './fingerprints.ts';

/** A group of the status site's files: the folder it owns (a web path), its fingerprint, and its files rendered on demand. */
interface FileGroup {
  key: string;
  fingerprint: number;
  render(): { path: string; data: FileText }[];
  prepare?(): void;
}

/** What the status site's groups are made from: the model, its sums, the API bodies (for exports) and the fingerprints. */
interface StatusSiteGroupContext {
  model: Model;
  aggregates: Aggregates;
  bodies: Bodies;
  fingerprints: Fingerprints;
  /** Where PNG renderings are kept between processes (none: each process draws its own). */
  pngs: PngStore | null;
}

/** Every group of the status site, or none when the status site has its pages off. */
export function* statusSiteGroups(context: StatusSiteGroupContext): Generator<FileGroup> {
  if (!context.model.settings.pages) return;
  yield stylesheetGroup(context);
  const byLanguage = projectsByLanguage(context.model);
  for (const language of context.model.languages)
    yield languageGroup(context, language, byLanguage.get(language) ?? []);
  for (const project of context.model.projects) yield* projectStatusSiteGroups(context, project);
  for (const category of context.model.categories) yield categoryStatusSiteGroup(context, category);
  for (const component of context.model.components)
    yield* componentStatusSiteGroups(context, component);
}

/**
 * Starts rendering every project's PNG widgets in the background, in the
 * order statusSiteGroups() renders them: for a whole new tree, whose status
 * site comes after the API, so the renderings overlap the API's writing.
 */
export function prepareStatusSite(context: StatusSiteGroupContext): void {
  if (!context.model.settings.pages || context.model.projects.length === 0) return;
  const all = context.model.settings.pngWidgets === 'all';
  preparePngs(
    all ? drawingsOfAll(context) : drawingsOfProjects(context, context.model.projects),
    true,
    context.pngs,
  );
}

/** Every object's PNG drawings (`png_widgets: all`), in the order statusSiteGroups() renders them. */
function* drawingsOfAll(context: StatusSiteGroupContext): Generator<string> {
  for (const project of context.model.projects) {
    yield* drawingsOfProjects(context, [project]);
    for (const language of languagesOf(project))
      yield* svgsOf(projectLanguagePngs(context, project, language));
  }
  for (const component of context.model.components) {
    yield* svgsOf(componentPngs(context, component));
    for (const translation of component.translations) yield* svgsOf(translationPngs(translation));
  }
}

/** The projects' PNG drawings, each drawn only when the rasteriser asks for the next. */
function* drawingsOfProjects(
  context: StatusSiteGroupContext,
  projects: Iterable<Project>,
): Generator<string> {
  for (const project of projects)
    yield* drawingsOf(projectDrawings(context, project, projectShare(context, project)));
}

/** The home page (`/`): it lives in the root folder, whose group is the tree's (groups.ts). */
export function homeFile(context: StatusSiteGroupContext): { path: string; data: FileText } {
  return {
    path: 'index.html',
    data: withShareMeta(homePage(context), {
      url: webUrl(context.model.settings, '/'),
      image: null,
    }),
  };
}

/** What the home page shows: every project's and every language's name and sums. */
export function homeFingerprint(context: StatusSiteGroupContext): number {
  const { model, fingerprints, aggregates } = context;
  const h = new Hasher().number(fingerprints.settings).text('home');
  for (const project of model.projects)
    h.number(fingerprints.project(project)).number(
      fingerprints.counters(aggregates.project(project)),
    );
  for (const language of model.languages)
    h.number(fingerprints.language(language)).number(
      fingerprints.counters(aggregates.language(language)),
    );
  return h.digest();
}

/** How many files statusSiteGroups() writes, for progress reports. */
export function countStatusSiteFiles(model: Model): number {
  if (!model.settings.pages) return 0;
  const charts = CHART_KINDS.length * CHART_COLORS.length;
  const version = model.settings.weblateVersion;
  const current = hasTrait(version, 'shapes5');
  const exports = hasTrait(version, 'noStatsExports') ? 0 : 2;
  let total = 2 + model.languages.length + model.categories.length;
  for (const project of model.projects) {
    const languages = new Set(
      project.components.flatMap((c) => c.translations.map((t) => t.language)),
    ).size;
    // Its page, widget folder (badge, charts, its other widgets), widgets page, exports, languages.
    total +=
      1 + (1 + charts + PROJECT_WIDGET_FILES.length) + 1 + exports + languages * (current ? 4 : 3);
  }
  // A component's page, widget folder (badge, charts, language badge) and exports.
  total += model.components.length * (1 + (2 + charts) + exports) + model.translations.length * 3;
  return total + languageChartFiles(model, charts) + pngWidgetFiles(model);
}

/** With `png_widgets: all`, the PNGs of every component's, project language's and translation's widget folder. */
function pngWidgetFiles(model: Model): number {
  if (model.settings.pngWidgets !== 'all') return 0;
  let folders = model.components.length + model.translations.length;
  for (const project of model.projects) folders += languagesOf(project).length;
  return folders * (1 + BITMAP_SIZES.length * BITMAP_COLORS.length);
}

/** From 5.0 the widget folders of a project's language and of a translation hold charts too. */
function languageChartFiles(model: Model, charts: number): number {
  if (!hasTrait(model.settings.weblateVersion, 'languageChartRow')) return 0;
  let folders = model.translations.length;
  for (const project of model.projects)
    folders += new Set(project.components.flatMap((c) => c.translations.map((t) => t.language)))
      .size;
  return folders * charts;
}

/**
 * The site's groups a patch of some components may have changed (the home
 * page is the root folder's, groups.ts): the languages and projects whose sums may have moved (with every
 * language of those projects), their categories, and the changed components
 * with their translations.
 */
export function patchedStatusSiteGroups(
  context: StatusSiteGroupContext,
  scope: {
    projects: Iterable<Project>;
    languages: Iterable<Language>;
    components: Iterable<Component>;
  },
): FileGroup[] {
  const { model } = context;
  if (!model.settings.pages) return [];
  const groups: FileGroup[] = [];
  const published = new Set(model.languages);
  const projects = [...scope.projects];
  for (const language of scope.languages) {
    if (published.has(language))
      groups.push(languageGroup(context, language, projectsHaving(context, language)));
  }
  for (const project of projects) {
    groups.push(...projectStatusSiteGroups(context, project));
    for (const category of project.categories)
      groups.push(categoryStatusSiteGroup(context, category));
  }
  for (const component of scope.components)
    groups.push(...componentStatusSiteGroups(context, component));
  return groups;
}

/**
 * The keys of the status site groups of the model's languages, of the languages
 * within the given projects (each with its components), and of the given
 * components and their translations: what a patch compares before and after
 * to tell which folders are gone.
 */
export function statusSiteKeysOf(
  model: Model,
  projects: Iterable<readonly [project: Project, components: readonly Component[]]>,
  components: Iterable<Component>,
): Set<string> {
  const keys = new Set<string>();
  if (!model.settings.pages) return keys;
  for (const language of model.languages) keys.add(webPath.language(language.code));
  for (const [project, inProject] of projects) {
    for (const language of languagesOfComponents(inProject))
      for (const key of projectLanguageKeys(model, project, language)) keys.add(key);
  }
  for (const component of components) {
    for (const key of componentKeys(model, component)) keys.add(key);
    for (const translation of component.translations)
      for (const key of translationKeys(model, translation)) keys.add(key);
  }
  return keys;
}

// --- internal ---

/** The stylesheet's folder. */
function stylesheetGroup(context: StatusSiteGroupContext): FileGroup {
  return {
    key: statusSitePath.stylesheet().replace(/[^/]+$/, ''),
    fingerprint: new Hasher().number(context.fingerprints.settings).text('stylesheet').digest(),
    render: () => [{ path: fileOf(statusSitePath.stylesheet()), data: STYLESHEET }],
  };
}

function languageGroup(
  context: StatusSiteGroupContext,
  language: Language,
  projects: readonly Project[],
): FileGroup {
  const { fingerprints, aggregates } = context;
  const h = new Hasher()
    .number(fingerprints.settings)
    .number(fingerprints.language(language))
    .number(fingerprints.counters(aggregates.language(language)));
  for (const project of projects) {
    h.number(fingerprints.project(project)).number(
      fingerprints.counters(aggregates.projectLanguages(project).get(language)!),
    );
  }
  const key = webPath.language(language.code);
  return {
    key,
    fingerprint: h.digest(),
    render: () => [page(context, key, languagePage(context, language, projects), null)],
  };
}

function* projectStatusSiteGroups(
  context: StatusSiteGroupContext,
  project: Project,
): Generator<FileGroup> {
  const { model, fingerprints, aggregates, bodies } = context;
  const settings = model.settings;
  const h = new Hasher()
    .number(fingerprints.settings)
    .number(fingerprints.project(project))
    .number(fingerprints.counters(aggregates.project(project)));
  for (const [language, counters] of aggregates.projectLanguages(project))
    h.number(fingerprints.language(language)).number(fingerprints.counters(counters));
  for (const component of project.components)
    h.number(fingerprints.component(component)).number(
      fingerprints.counters(aggregates.component(component)),
    );
  for (const category of project.categories) h.number(fingerprints.category(category));
  const fingerprint = h.digest();
  const key = webPath.project(project.slug);
  yield {
    key,
    fingerprint,
    render: () => [page(context, key, projectPage(context, project), project)],
  };
  const review = projectHasReview(project);
  const sums = widgetSums(settings, context.aggregates, project);
  const rows = () =>
    [...sums].map(([language, counters]) => ({
      name: language.name,
      translated: counters.translated,
      percent: percent(counters.translated, counters.total, !review),
      url: webUrl(settings, projectLanguageWebPath(settings, project, language)),
    }));
  const share = projectShare(context, project);
  const folder = widgetFolder(settings, project, null, null);
  // The matrix draws every translation's share: it moves with each translation, not only the sums.
  const cells = new Hasher().number(fingerprint);
  for (const component of project.components)
    for (const translation of component.translations)
      cells
        .number(fingerprints.language(translation.language))
        .number(fingerprints.counters(translation.counters));
  yield {
    ...widgetGroup(folder, cells.digest(), share, rows, () =>
      projectWidgetFiles(context, project, folder, share),
    ),
    prepare: () => preparePngs(drawingsOfProjects(context, [project]), false, context.pngs),
  };
  const widgetsKey = statusSitePath.widgetsPage(project.slug);
  yield {
    key: widgetsKey,
    fingerprint,
    render: () => [page(context, widgetsKey, widgetsPage(context, project), project)],
  };
  if (!hasTrait(settings.weblateVersion, 'noStatsExports'))
    yield exportGroup(
      statusSitePath.exports(project.slug, null),
      fingerprint,
      'project',
      settings.weblateVersion,
      () => byCode(bodies.projectExportRows(project)),
    );
  for (const language of languagesOf(project))
    yield* projectLanguageGroups(context, project, language);
}

/** A language within a project: its page, its share (engage) page, its badge (and in 2026.8 its translate page). */
function* projectLanguageGroups(
  context: StatusSiteGroupContext,
  project: Project,
  language: Language,
): Generator<FileGroup> {
  const { model, fingerprints, aggregates } = context;
  const counters = aggregates.projectLanguages(project).get(language)!;
  const shown = widgetSums(model.settings, aggregates, project).get(language) ?? emptyCounters();
  const h = new Hasher()
    .number(fingerprints.settings)
    .number(fingerprints.project(project))
    .number(fingerprints.language(language))
    .number(fingerprints.counters(counters));
  for (const component of project.components) {
    const translation = component.translations.find((t) => t.language === language);
    if (translation) h.number(fingerprints.translation(translation));
  }
  const fingerprint = h.digest();
  const [pageKey, shareKey, widgetKey, translateKey] = projectLanguageKeys(
    model,
    project,
    language,
  );
  yield {
    key: pageKey!,
    fingerprint,
    render: () => [
      page(context, pageKey!, projectLanguagePage(context, project, language, 'status'), project),
    ],
  };
  yield {
    key: shareKey!,
    fingerprint,
    render: () => [
      page(context, shareKey!, projectLanguagePage(context, project, language, 'share'), project),
    ],
  };
  const review = projectHasReview(project);
  const share = percent(shown.translated, shown.total, !review);
  // Current Weblate draws a chart at a language's prefix from that language's sums alone.
  const row = () => [
    {
      name: language.name,
      translated: shown.translated,
      percent: share,
      url: webUrl(model.settings, projectLanguageWebPath(model.settings, project, language)),
    },
  ];
  const charts = hasTrait(model.settings.weblateVersion, 'languageChartRow');
  yield withPngWidgets(
    context,
    widgetGroup(widgetKey!, fingerprint, share, charts ? row : null),
    () => projectLanguagePngs(context, project, language),
  );
  if (translateKey)
    yield {
      key: translateKey,
      fingerprint,
      render: () => [
        page(
          context,
          translateKey,
          projectLanguagePage(context, project, language, 'translate'),
          project,
        ),
      ],
    };
}

/** A category's page (2026.8). */
function categoryStatusSiteGroup(context: StatusSiteGroupContext, category: Category): FileGroup {
  const { fingerprints, aggregates } = context;
  const project = category.project;
  const h = new Hasher()
    .number(fingerprints.settings)
    .number(fingerprints.category(category))
    .number(fingerprints.counters(aggregates.category(category)));
  for (const component of project.components) {
    if (component.category === category)
      h.number(fingerprints.component(component)).number(
        fingerprints.counters(aggregates.component(component)),
      );
  }
  for (const inner of project.categories) {
    if (inner.parent === category)
      h.number(fingerprints.category(inner)).number(
        fingerprints.counters(aggregates.category(inner)),
      );
  }
  const key = webPath.category(project.slug, categoryWebPath(category));
  return {
    key,
    fingerprint: h.digest(),
    render: () => [page(context, key, categoryPage(context, category), project)],
  };
}

function* componentStatusSiteGroups(
  context: StatusSiteGroupContext,
  component: Component,
): Generator<FileGroup> {
  const { model, fingerprints, aggregates, bodies } = context;
  const settings = model.settings;
  const h = new Hasher().number(fingerprints.settings).number(fingerprints.component(component));
  for (const translation of component.translations) h.number(fingerprints.translation(translation));
  const fingerprint = h.digest();
  const [pageKey, widgetKey, exportKey] = componentKeys(model, component);
  yield {
    key: pageKey!,
    fingerprint,
    render: () => [page(context, pageKey!, componentPage(context, component), component.project)],
  };
  const sum = aggregates.component(component);
  const rows = () => component.translations.map((t) => chartRow(settings, t));
  yield withPngWidgets(
    context,
    widgetGroup(
      widgetKey!,
      fingerprint,
      percent(sum.translated, sum.total, !projectHasReview(component.project)),
      rows,
      // Its language badge, as Weblate serves one for any object: an SVG, cheap to write.
      () => [
        {
          path: fileOf(widgetKey! + LANGUAGE_BADGE_FILE),
          data: renderLanguageBadge(component.translations.length),
        },
      ],
    ),
    () => componentPngs(context, component),
  );
  const translations = () =>
    [...component.translations]
      .sort((a, b) => compareStrings(a.languageCode, b.languageCode))
      .map((t) => bodies.translationStatistics(t));
  if (!hasTrait(settings.weblateVersion, 'noStatsExports'))
    yield exportGroup(exportKey!, fingerprint, 'component', settings.weblateVersion, translations);
  for (const translation of component.translations)
    yield* translationStatusSiteGroups(context, translation);
}

function* translationStatusSiteGroups(
  context: StatusSiteGroupContext,
  translation: Translation,
): Generator<FileGroup> {
  const { model, fingerprints } = context;
  const fingerprint = new Hasher()
    .number(fingerprints.settings)
    .number(fingerprints.translation(translation))
    .digest();
  const [pageKey, translateKey, widgetKey] = translationKeys(model, translation);
  // Both pages show the same figures, and a build renders them one after the other.
  let figures: string | undefined;
  const figuresOnce = () => (figures ??= translationFigures(context, translation));
  yield {
    key: pageKey!,
    fingerprint,
    render: () => [
      page(
        context,
        pageKey!,
        translationPage(context, translation, false, figuresOnce()),
        translation.component.project,
      ),
    ],
  };
  yield {
    key: translateKey!,
    fingerprint,
    render: () => [
      page(
        context,
        translateKey!,
        translationPage(context, translation, true, figuresOnce()),
        translation.component.project,
      ),
    ],
  };
  const share = translatedShare(translation);
  const charts = hasTrait(model.settings.weblateVersion, 'languageChartRow');
  yield withPngWidgets(
    context,
    widgetGroup(
      widgetKey!,
      fingerprint,
      share,
      charts ? () => [chartRow(model.settings, translation)] : null,
    ),
    () => translationPngs(translation),
  );
}

/** A translation's row in its component's charts (and, from 5.0, in its own). */
function chartRow(settings: Settings, t: Translation): ChartRow {
  const { component, counters } = t;
  const path = hasTrait(settings.weblateVersion, 'translateChartRows')
    ? webPath.translate
    : webPath.translation;
  return {
    name: t.language.name,
    translated: counters.translated,
    percent: translatedShare(t, counters),
    url: webUrl(
      settings,
      path(component.project.slug, componentWebPath(component), t.language.code),
    ),
  };
}

/** The keys of a language's groups within a project: page, share page, badge, and (2026.8) translate page. */
function projectLanguageKeys(model: Model, project: Project, language: Language): string[] {
  const settings = model.settings;
  const p = project.slug;
  const l = language.code;
  if (!hasTrait(settings.weblateVersion, 'shapes5'))
    return [
      `${webPath.language(l)}${p}/`,
      webPath.share(p, l),
      widgetFolder(settings, project, language, null),
    ];
  return [
    webPath.projectLanguage(p, l),
    webPath.share2026(p, l),
    widgetFolder(settings, project, language, null),
    webPath.projectLanguageTranslate(p, l),
  ];
}

function componentKeys(model: Model, component: Component): string[] {
  const p = component.project.slug;
  return [
    webPath.component(p, componentWebPath(component)),
    widgetFolder(model.settings, component.project, null, component),
    statusSitePath.exports(p, componentWebPath(component)),
  ];
}

function translationKeys(model: Model, translation: Translation): string[] {
  const { component, language } = translation;
  const p = component.project.slug;
  const c = componentWebPath(component);
  return [
    webPath.translation(p, c, language.code),
    webPath.translate(p, c, language.code),
    widgetFolder(model.settings, component.project, language, component),
  ];
}

/**
 * A folder of a badge and, for a project or a component, its charts in every
 * kind and color, and (`more`) its other widgets.
 */
function widgetGroup(
  key: string,
  fingerprint: number,
  share: number,
  rows: (() => ChartRow[]) | null,
  more: () => { path: string; data: FileText }[] = () => [],
): FileGroup {
  return {
    key,
    fingerprint,
    render: () => {
      const files: { path: string; data: FileText }[] = [
        { path: fileOf(key + BADGE_FILE), data: renderBadge(share) },
        ...more(),
      ];
      if (!rows) return files;
      const sorted = rows().sort((a, b) => compareStrings(a.name, b.name));
      for (const kind of CHART_KINDS) {
        const charts = renderCharts(kind, CHART_COLORS, sorted);
        CHART_COLORS.forEach((color, i) =>
          files.push({ path: fileOf(key + chartFile(kind, color)), data: charts[i]! }),
        );
      }
      return files;
    },
  };
}

/**
 * The widgets only a project's folder holds: the badge as PNG, the bitmap
 * widgets in each color, the language badge, the matrix in each color and
 * the Open Graph image. PNGs cost milliseconds each, so only a project has
 * them (rendered in worker threads, asked for ahead by the group's prepare).
 */
function projectWidgetFiles(
  context: StatusSiteGroupContext,
  project: Project,
  folder: string,
  share: number,
): { path: string; data: FileText }[] {
  const languages = context.aggregates.projectLanguages(project);
  const cells = project.components.flatMap((component) =>
    component.translations.map((t) => ({
      component: component.name,
      language: t.language.name,
      percent: translatedShare(t),
    })),
  );
  const drawings = projectDrawings(context, project, share);
  const png = ([name, svg]: Drawing) => ({
    path: fileOf(folder + name),
    data: [renderPng(svg, context.pngs)],
  });
  return [
    png(drawings.badge),
    ...drawings.bitmaps.map(png),
    { path: fileOf(folder + LANGUAGE_BADGE_FILE), data: renderLanguageBadge(languages.size) },
    ...renderMatrices(CHART_COLORS, cells).map((data, i) => ({
      path: fileOf(folder + matrixFile(CHART_COLORS[i]!)),
      data,
    })),
    png(drawings.openGraph),
  ];
}

/** A PNG widget's file name and drawing. */
type Drawing = [name: string, svg: string];

/** The drawings of a project's PNG widgets. */
function projectDrawings(
  context: StatusSiteGroupContext,
  project: Project,
  share: number,
): { badge: Drawing; bitmaps: Drawing[]; openGraph: Drawing } {
  const figures: WidgetFigures = {
    strings: project.components.reduce(
      (sum, c) => sum + (c.translations.find((t) => t.isSource)?.counters.total ?? 0),
      0,
    ),
    languages: context.aggregates.projectLanguages(project).size,
    percent: share,
  };
  return {
    badge: [PNG_BADGE_FILE, renderBadge(share)],
    bitmaps: bitmapDrawings(figures),
    openGraph: [OPEN_GRAPH_FILE, renderOpenGraph(project.name, figures)],
  };
}

/** The bitmap widgets' drawings, each size in each color. */
function bitmapDrawings(figures: WidgetFigures): Drawing[] {
  return BITMAP_SIZES.flatMap((size) =>
    BITMAP_COLORS.map((color): Drawing => [
      bitmapFile(size, color),
      renderBitmapWidget(size, color, figures),
    ]),
  );
}

/**
 * With `png_widgets: all`, a widget folder of a component, a project's
 * language or a translation also holds the badge as PNG and the bitmap
 * widgets (not the Open Graph image: pages share their project's), drawn
 * ahead by the group's prepare. The default leaves the group as it is.
 */
function withPngWidgets(
  context: StatusSiteGroupContext,
  group: FileGroup,
  drawings: () => Drawing[],
): FileGroup {
  if (context.model.settings.pngWidgets !== 'all') return group;
  return {
    ...group,
    render: () => [
      ...group.render(),
      ...drawings().map(([name, svg]) => ({
        path: fileOf(group.key + name),
        data: [renderPng(svg, context.pngs)],
      })),
    ],
    prepare: () => preparePngs(svgsOf(drawings()), false, context.pngs),
  };
}

/** The PNG widgets of a share and figures: the badge, then the bitmap widgets. */
function objectPngs(share: number, figures: WidgetFigures): Drawing[] {
  return [[PNG_BADGE_FILE, renderBadge(share)], ...bitmapDrawings(figures)];
}

function componentPngs(context: StatusSiteGroupContext, component: Component): Drawing[] {
  const sum = context.aggregates.component(component);
  const share = percent(sum.translated, sum.total, !projectHasReview(component.project));
  const strings = component.translations.find((t) => t.isSource)?.counters.total ?? 0;
  return objectPngs(share, { strings, languages: component.translations.length, percent: share });
}

/** A project's language: the sums its badge shows, its strings in that language. */
function projectLanguagePngs(
  context: StatusSiteGroupContext,
  project: Project,
  language: Language,
): Drawing[] {
  const { settings } = context.model;
  const shown = widgetSums(settings, context.aggregates, project).get(language) ?? emptyCounters();
  const share = percent(shown.translated, shown.total, !projectHasReview(project));
  return objectPngs(share, { strings: shown.total, languages: 1, percent: share });
}

function translationPngs(translation: Translation): Drawing[] {
  const { counters } = translation;
  const share = translatedShare(translation, counters);
  return objectPngs(share, { strings: counters.total, languages: 1, percent: share });
}

/** A translation's translated share, as its widgets and charts show it: its counters read once. */
function translatedShare(t: Translation, counters = t.counters): number {
  return percent(counters.translated, counters.total, !translationHasReview(t));
}

function svgsOf(drawings: readonly Drawing[]): string[] {
  return drawings.map(([, svg]) => svg);
}

/** The drawings in the order projectWidgetFiles() renders them. */
function drawingsOf(drawings: ReturnType<typeof projectDrawings>): string[] {
  return [drawings.badge, ...drawings.bitmaps, drawings.openGraph].map(([, svg]) => svg);
}

/** The share a project's badge and widgets show. */
function projectShare(context: StatusSiteGroupContext, project: Project): number {
  const total = widgetTotal(context.model.settings, context.aggregates, project);
  return percent(total.translated, total.total, !projectHasReview(project));
}

function exportGroup(
  key: string,
  fingerprint: number,
  kind: ExportKind,
  version: Release,
  rows: () => JsonValue[],
): FileGroup {
  return {
    key,
    fingerprint,
    render: () => {
      const objects = rows();
      return [
        { path: fileOf(`${key}index.json`), data: renderExportJson(objects) },
        { path: fileOf(`${key}index.csv`), data: renderExportCsv(objects, kind, version) },
      ];
    },
  };
}

/** A page's file, with the tags of its link preview (a project's page shows the project's panel). */
function page(
  context: StatusSiteGroupContext,
  key: string,
  html: string,
  project: Project | null,
): { path: string; data: FileText } {
  const settings = context.model.settings;
  const image =
    project === null
      ? null
      : settings.baseUrl + widgetFolder(settings, project, null, null) + OPEN_GRAPH_FILE;
  return {
    path: fileOf(`${key}index.html`),
    data: withShareMeta(html, { url: webUrl(settings, key), image }),
  };
}

/** A web path's file in the output folder: `/projects/demo/index.html` → `projects/demo/index.html`. */
function fileOf(path: string): string {
  return path.slice(1);
}

/** The project-language entries of the API, ordered by language code as the exports are. */
function byCode(entries: JsonValue): JsonValue[] {
  if (!Array.isArray(entries)) return [];
  const code = (entry: JsonValue) => {
    if (!(entry instanceof ShapedObject)) return '';
    return entry.values[entry.shape.keys.indexOf('code')] as string;
  };
  return [...(entries as JsonValue[])].sort((a, b) => compareStrings(code(a), code(b)));
}

function languagesOf(project: Project): Language[] {
  return languagesOfComponents(project.components);
}

function languagesOfComponents(components: readonly Component[]): Language[] {
  const languages = new Set<Language>();
  for (const component of components)
    for (const translation of component.translations) languages.add(translation.language);
  return [...languages];
}

/** The projects that have a translation in each language, in the model's order. */
function projectsByLanguage(model: Model): Map<Language, Project[]> {
  const map = new Map<Language, Project[]>();
  for (const project of model.projects) {
    for (const language of languagesOf(project)) {
      const list = map.get(language);
      if (list) list.push(project);
      else map.set(language, [project]);
    }
  }
  return map;
}

/** The projects with a translation in the language, from their sums (kept between the patches of a session). */
function projectsHaving(context: StatusSiteGroupContext, language: Language): Project[] {
  return context.model.projects.filter((project) =>
    context.aggregates.projectLanguages(project).has(language),
  );
}
