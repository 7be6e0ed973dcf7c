/**
 * The status site's pages at Weblate's web paths: the instance, a project, a
 * category (2026.8), a component, a translation and its translate page, a
 * language, a language within a project and its share (engage) page. Each
 * shows what the API says of the object: progress bars, a table of its
 * children, the last change, links between pages and to the API resource.
 * Pure: the model in, HTML text out.
 */
import { hasTrait } from '../model/releases.ts';
import { projectHasReview, translationHasReview, type Aggregates } from '../model/aggregates.ts';
import type {
  Category,
  Component,
  Language,
  Model,
  Project,
  Settings,
  Translation,
} from '../model/types.ts';
import { compareStrings } from '../errors.ts';
import { FORMAT_FILES } from '../api/formats.ts';
import { emptyCounters, percent, type Counters } from '../model/statistics.ts';
import { widgetSums, widgetTotal } from './widget-sums.ts';
import {
  apiPath,
  basePath,
  categoryWebPath,
  componentSegment,
  componentWebPath,
  statusSitePath,
  webPath,
  BADGE_FILE,
} from '../api/urls.ts';
import {
  escapeHtml,
  factList,
  formatNumber,
  renderPage,
  textWithLinks,
  statusTable,
  summary,
  type Crumb,
  type PageFrame,
  type StatusRow,
} from './html.ts';

/** What every page is rendered from: the model and its sums. */
interface StatusSiteContext {
  model: Model;
  aggregates: Aggregates;
}

/** `/`: every project and every language of the instance. */
export function homePage(context: StatusSiteContext): string {
  const { model, aggregates } = context;
  const settings = model.settings;
  const projects = model.projects.map((project) => projectRow(context, project));
  const languages = model.languages
    .filter((language) => aggregates.language(language).total > 0)
    .map((language) =>
      languageRow(
        language,
        aggregates.language(language),
        true,
        link(settings, webPath.language(language.code)),
      ),
    );
  return page(settings, {
    title: siteTitle(settings),
    crumbs: [{ name: siteTitle(settings) }],
    api: { href: link(settings, apiPath.root()), label: 'The API root' },
    body:
      statusTable('projects', 'Projects', byName(projects)) +
      statusTable('languages', 'Languages', byName(languages)),
  });
}

export function projectPage(context: StatusSiteContext, project: Project): string {
  const { model, aggregates } = context;
  const settings = model.settings;
  const review = projectHasReview(project);
  const top = project.components
    .filter((c) => c.category === null)
    .map((c) => componentRow(context, c));
  const categories = project.categories
    .filter((c) => c.parent === null)
    .map((c) => categoryRow(context, c));
  const languages = [...aggregates.projectLanguages(project)].map(([language, counters]) =>
    languageRow(language, counters, review, projectLanguagePath(settings, project, language)),
  );
  // Weblate lists a project's categories and components in one table, categories first.
  return page(settings, {
    title: project.name,
    crumbs: [home(settings), { name: project.name }],
    api: { href: link(settings, apiPath.project(project.slug)), label: 'This project' },
    body:
      badge(settings, project, null, null, widgetTotal(settings, aggregates, project), review) +
      projectAbout(settings, project, languages.length) +
      `<p><a href="${link(settings, statusSitePath.widgetsPage(project.slug))}">Widgets to embed</a>: badges and charts of this project, with the HTML, Markdown and reStructuredText that show them.</p>\n` +
      summary(aggregates.project(project), review) +
      statusTable('components', 'Components', [...byName(categories), ...byName(top)]) +
      statusTable('languages', 'Languages', byName(languages)),
  });
}

/** A category's page (2026.8): its components and the categories inside it. */
export function categoryPage(context: StatusSiteContext, category: Category): string {
  const { model, aggregates } = context;
  const settings = model.settings;
  const project = category.project;
  const components = project.components
    .filter((c) => c.category === category)
    .map((c) => componentRow(context, c));
  const inside = project.categories
    .filter((c) => c.parent === category)
    .map((c) => categoryRow(context, c));
  return page(settings, {
    title: category.name,
    crumbs: [
      home(settings),
      projectCrumb(settings, project),
      ...categoryCrumbs(settings, category.parent),
      { name: category.name },
    ],
    api: { href: link(settings, apiPath.category(category.id)), label: 'This category' },
    body:
      summary(aggregates.category(category), projectHasReview(project)) +
      statusTable('components', 'Components', [...byName(inside), ...byName(components)]),
  });
}

export function componentPage(context: StatusSiteContext, component: Component): string {
  const { model, aggregates } = context;
  const settings = model.settings;
  const project = component.project;
  const rows = component.translations.map((t): StatusRow => ({
    name: t.language.name,
    href: link(
      settings,
      webPath.translation(project.slug, componentWebPath(component), t.language.code),
    ),
    counters: t.counters,
    review: translationHasReview(t),
    lastAuthor: t.lastAuthor,
  }));
  return page(settings, {
    title: component.name,
    crumbs: [
      home(settings),
      projectCrumb(settings, project),
      ...categoryCrumbs(settings, component.category),
      { name: component.name },
    ],
    api: {
      href: link(settings, apiPath.component(project.slug, componentSegment(component))),
      label: 'This component',
    },
    body:
      badge(
        settings,
        project,
        null,
        component,
        aggregates.component(component),
        projectHasReview(project),
      ) +
      summary(aggregates.component(component), projectHasReview(project)) +
      statusTable('translations', 'Translations', byName(rows), true) +
      exportsLinks(settings, project, component),
  });
}

/**
 * A translation's page, or (`translate`) its translate page: the same figures (a caller rendering
 * both passes them, made once) and a word on where editing happens.
 */
export function translationPage(
  context: StatusSiteContext,
  translation: Translation,
  translate: boolean,
  figures = translationFigures(context, translation),
): string {
  const settings = context.model.settings;
  const { component, language } = translation;
  const project = component.project;
  const web = componentWebPath(component);
  const own = link(settings, webPath.translation(project.slug, web, language.code));
  const notice = translate
    ? readOnlyNotice(settings, webPath.translate(project.slug, web, language.code), own, null)
    : '';
  return page(settings, {
    title: `${component.name} — ${language.name}`,
    crumbs: [
      home(settings),
      projectCrumb(settings, project),
      ...categoryCrumbs(settings, component.category),
      { name: component.name, href: link(settings, webPath.component(project.slug, web)) },
      translate ? { name: language.name, href: own } : { name: language.name },
      ...(translate ? [{ name: 'Translate' }] : []),
    ],
    api: {
      href: link(
        settings,
        apiPath.translation(project.slug, componentSegment(component), language.code),
      ),
      label: 'This translation',
    },
    body:
      notice +
      figures +
      `<p>Language: <a href="${link(settings, webPath.language(language.code))}">${escapeHtml(language.name)}</a> ` +
      `(<a href="${projectLanguagePath(settings, project, language)}">in ${escapeHtml(project.name)}</a>)` +
      (translate
        ? ''
        : ` · <a href="${link(settings, webPath.translate(project.slug, web, language.code))}">Translate</a>`) +
      `</p>\n`,
  });
}

/** What both pages of a translation show of it: its badge and its summary. */
export function translationFigures(context: StatusSiteContext, translation: Translation): string {
  const { component, language } = translation;
  const review = translationHasReview(translation);
  return (
    badge(
      context.model.settings,
      component.project,
      language,
      component,
      translation.counters,
      review,
    ) + summary(translation.counters, review, translation.lastAuthor)
  );
}

/** `/languages/<code>/`: the language in every project that has it. */
export function languagePage(
  context: StatusSiteContext,
  language: Language,
  projects: readonly Project[],
): string {
  const { model, aggregates } = context;
  const settings = model.settings;
  const rows = projects.map((project) => ({
    ...projectRow(context, project),
    href: projectLanguagePath(settings, project, language),
    counters: aggregates.projectLanguages(project).get(language)!,
  }));
  return page(settings, {
    title: language.name,
    crumbs: [home(settings), { name: language.name }],
    api: { href: link(settings, apiPath.language(language.code)), label: 'This language' },
    body:
      summary(aggregates.language(language), true) +
      statusTable('projects', 'Projects', byName(rows)),
  });
}

/**
 * A language within a project (4.x `/languages/<l>/<p>/`, 2026.8
 * `/projects/<p>/-/<l>/`), its share (engage) page, or (2026.8) its translate
 * page: its translations of each component.
 */
export function projectLanguagePage(
  context: StatusSiteContext,
  project: Project,
  language: Language,
  mode: 'status' | 'share' | 'translate',
): string {
  const { model, aggregates } = context;
  const settings = model.settings;
  const rows: StatusRow[] = [];
  for (const component of project.components) {
    const translation = component.translations.find((t) => t.language === language);
    if (!translation) continue;
    rows.push({
      name: component.name,
      href: link(
        settings,
        webPath.translation(project.slug, componentWebPath(component), language.code),
      ),
      counters: translation.counters,
      review: translationHasReview(translation),
      lastAuthor: translation.lastAuthor,
    });
  }
  const own = projectLanguagePath(settings, project, language);
  const share = (!hasTrait(settings.weblateVersion, 'shapes5') ? webPath.share : webPath.share2026)(
    project.slug,
    language.code,
  );
  const intro = {
    status: '',
    share: readOnlyNotice(
      settings,
      share,
      null,
      `${project.name} is being translated into ${language.name}.`,
    ),
    translate: readOnlyNotice(
      settings,
      webPath.projectLanguageTranslate(project.slug, language.code),
      null,
      null,
    ),
  }[mode];
  return page(settings, {
    title: `${project.name} — ${language.name}`,
    crumbs: [
      home(settings),
      projectCrumb(settings, project),
      mode === 'status' ? { name: language.name } : { name: language.name, href: own },
      ...(mode === 'status' ? [] : [{ name: mode === 'share' ? 'Get involved' : 'Translate' }]),
    ],
    api: {
      href: link(settings, apiPath.projectLanguages(project.slug)),
      label: 'The languages of this project',
    },
    body:
      intro +
      badge(
        settings,
        project,
        language,
        null,
        widgetSums(settings, aggregates, project).get(language) ?? emptyCounters(),
        projectHasReview(project),
      ) +
      summary(aggregates.projectLanguages(project).get(language)!, projectHasReview(project)) +
      statusTable('components', 'Components', byName(rows), true),
  });
}

/** What a miss under the site's paths is answered with by the preview and the sidecar: the site's frame and a way home. */
export function notFoundPage(settings: Settings): string {
  return page(settings, {
    title: 'Page not found',
    crumbs: [home(settings), { name: 'Page not found' }],
    api: { href: link(settings, apiPath.root()), label: 'The API root' },
    body:
      '<p>This snapshot holds no page at this address.</p>\n' +
      `<p><a href="${link(settings, '/')}">Go to the home page</a></p>\n`,
  });
}

/** Root-relative URL of a path of the status site (below the base URL's path). */
function link(settings: Settings, path: string): string {
  return basePath(settings) + path;
}

/** The page of a language within a project, in the settings' flavour. */
function projectLanguagePath(settings: Settings, project: Project, language: Language): string {
  return link(settings, projectLanguageWebPath(settings, project, language));
}

/** The web path of a language within a project, in the settings' flavour (below the web URL). */
export function projectLanguageWebPath(
  settings: Settings,
  project: Project,
  language: Language,
): string {
  return !hasTrait(settings.weblateVersion, 'shapes5')
    ? `${webPath.language(language.code)}${project.slug}/`
    : webPath.projectLanguage(project.slug, language.code);
}

/** The folder of an object's badge and charts, in the settings' flavour. */
export function widgetFolder(
  settings: Settings,
  project: Project,
  language: Language | null,
  component: Component | null,
): string {
  const c =
    component === null
      ? null
      : !hasTrait(settings.weblateVersion, 'shapes5')
        ? component.slug
        : componentWebPath(component);
  return (
    !hasTrait(settings.weblateVersion, 'shapes5') ? statusSitePath.widgets : statusSitePath.widget
  )(project.slug, language?.code ?? null, c);
}

// --- internal ---

/** A page of the status site: the frame with the instance's name and the one stylesheet. */
function page(settings: Settings, frame: Omit<PageFrame, 'stylesheet' | 'site'>): string {
  return renderPage({
    ...frame,
    site: siteTitle(settings),
    stylesheet: link(settings, statusSitePath.stylesheet()),
  });
}

/** The instance's name: site.yaml's `title`, else what the site is. */
export function siteTitle(settings: Settings): string {
  return settings.title ?? 'Translation status';
}

/**
 * What the project is, as Weblate's project page says it: its website, the
 * licenses and source languages of its components, how many components and
 * languages it has, and its instructions for translators.
 */
function projectAbout(settings: Settings, project: Project, languages: number): string {
  const facts: [string, string][] = [];
  if (project.web !== '') facts.push(['Website', outLink(project.web, project.web)]);
  const licenses = projectLicenses(settings, project);
  if (licenses.length > 0) facts.push(['License', licenses.join(', ')]);
  const sources = unique(project.components.map((c) => c.sourceLanguage.name));
  if (sources.length > 0) facts.push(['Source language', sources.map(escapeHtml).join(', ')]);
  facts.push(['Components', formatNumber(project.components.length)]);
  facts.push(['Languages', formatNumber(languages)]);
  const instructions =
    project.instructions.trim() === ''
      ? ''
      : `<h3>Instructions for translators</h3><div class="instructions" dir="auto">${textWithLinks(project.instructions)}</div>`;
  return `<section aria-labelledby="about"><h2 id="about">About</h2>${factList(facts)}${instructions}</section>\n`;
}

/** The licenses of a project's components in effect, each linked to its text where known. */
function projectLicenses(settings: Settings, project: Project): string[] {
  const seen = new Map<string, string>();
  for (const component of project.components) {
    const [license, url] =
      settings.weblateVersion === '4'
        ? [component.settings.license, component.licenseUrl]
        : [component.inherited.effective.license, component.licenseUrl2026];
    if (license === '' || seen.has(license)) continue;
    seen.set(license, url === null || url === '' ? escapeHtml(license) : outLink(url, license));
  }
  return [...seen].sort(([a], [b]) => compareStrings(a, b)).map(([, html]) => html);
}

/** A link out of the site to a URL the content gives (checked to be http(s) when read). */
function outLink(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}" rel="nofollow ugc">${escapeHtml(text)}</a>`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareStrings);
}

/**
 * The notice of a translate or share page: this copy is read-only, and where
 * translating happens (the same page on the instance `edit_url` names, when
 * site.yaml says). `lead` opens it; `status` links the translation's status page.
 */
function readOnlyNotice(
  settings: Settings,
  path: string,
  status: string | null,
  lead: string | null,
): string {
  const where =
    settings.editUrl === null
      ? 'Translation happens in the Weblate instance this status was taken from.'
      : `Translation happens on <a href="${escapeHtml(settings.editUrl + path)}">${escapeHtml(new URL(settings.editUrl).host)}</a>.`;
  const opening = lead === null ? '' : `${escapeHtml(lead)} `;
  const link = status === null ? '' : ` <a href="${status}">The status of this translation</a>`;
  return `<p class="notice" role="note">${opening}This copy is read-only: strings cannot be translated here. ${where}${link}</p>\n`;
}

function home(settings: Settings): Crumb {
  return { name: siteTitle(settings), href: link(settings, '/') };
}

function projectCrumb(settings: Settings, project: Project): Crumb {
  return { name: project.name, href: link(settings, webPath.project(project.slug)) };
}

/** Crumbs of a category and the ones above it, top first. */
function categoryCrumbs(settings: Settings, category: Category | null): Crumb[] {
  const crumbs: Crumb[] = [];
  for (let c = category; c; c = c.parent) {
    crumbs.unshift({
      name: c.name,
      href: link(settings, webPath.category(c.project.slug, categoryWebPath(c))),
    });
  }
  return crumbs;
}

function projectRow(context: StatusSiteContext, project: Project): StatusRow {
  return {
    name: project.name,
    href: link(context.model.settings, webPath.project(project.slug)),
    counters: context.aggregates.project(project),
    review: projectHasReview(project),
  };
}

function componentRow(context: StatusSiteContext, component: Component): StatusRow {
  return {
    name: component.name,
    href: link(
      context.model.settings,
      webPath.component(component.project.slug, componentWebPath(component)),
    ),
    counters: context.aggregates.component(component),
    review: projectHasReview(component.project),
  };
}

function categoryRow(context: StatusSiteContext, category: Category): StatusRow {
  return {
    name: category.name,
    href: link(
      context.model.settings,
      webPath.category(category.project.slug, categoryWebPath(category)),
    ),
    counters: context.aggregates.category(category),
    review: projectHasReview(category.project),
  };
}

function languageRow(
  language: Language,
  counters: StatusRow['counters'],
  review: boolean,
  href: string,
): StatusRow {
  return { name: language.name, href, counters, review };
}

function byName(rows: StatusRow[]): StatusRow[] {
  return rows.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.href, b.href));
}

/**
 * The object's badge, shown as Weblate's engage pages show it, its alt text
 * what the badge says: the translated share of `counters`, truncated as the badge truncates it.
 */
function badge(
  settings: Settings,
  project: Project,
  language: Language | null,
  component: Component | null,
  counters: Counters,
  review: boolean,
): string {
  const src = link(settings, widgetFolder(settings, project, language, component) + BADGE_FILE);
  return `<p class="badge"><img src="${src}" alt="${badgeAlt(counters, review)}" height="20"></p>\n`;
}

/** What a badge says, as its text alternative: the badge's own label. */
export function badgeAlt(counters: Counters, review: boolean): string {
  return `translated: ${Math.trunc(percent(counters.translated, counters.total, !review))}%`;
}

function exportsLinks(settings: Settings, project: Project, component: Component): string {
  // Weblate 5.10 replaced the exports with the API's statistics; their other formats are linked
  // as files, which every host serves (?format= needs a host that maps queries).
  if (hasTrait(settings.weblateVersion, 'noStatsExports')) {
    const list = link(
      settings,
      apiPath.componentStatistics(project.slug, componentSegment(component)),
    );
    return `<p>Statistics of every translation: <a href="${list}">API</a>, <a href="${list}${FORMAT_FILES.csv}">CSV</a>, <a href="${list}${FORMAT_FILES['json-flat']}">flat JSON</a></p>\n`;
  }
  const folder = link(settings, statusSitePath.exports(project.slug, componentWebPath(component)));
  return `<p>Statistics of every translation: <a href="${folder}">JSON</a>, <a href="${folder}index.csv">CSV</a></p>\n`;
}
