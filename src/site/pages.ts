/**
 * The status site's pages at Weblate's web paths: the instance, a project, a
 * category (2026.8), a component, a translation and its translate page, a
 * language, a language within a project and its share (engage) page. Each
 * shows what the API says of the object: progress bars, a table of its
 * children, the last change, links between pages and to the API resource.
 * Pure: the model in, HTML text out.
 */
import { projectHasReview, translationHasReview, type Aggregates } from '../model/aggregates.ts';
import type {
  Category,
  Component,
  Language,
  Model,
  Project,
  Site,
  Translation,
} from '../model/types.ts';
import { compareStrings } from '../errors.ts';
import {
  apiPath,
  basePath,
  categoryWebPath,
  componentSegment,
  componentWebPath,
  sitePath,
  webPath,
  BADGE_FILE,
} from '../api/urls.ts';
import {
  escapeHtml,
  renderPage,
  statusTable,
  summary,
  type Crumb,
  type PageFrame,
  type StatusRow,
} from './html.ts';

/** What every page is rendered from: the model and its sums. */
interface SiteContext {
  model: Model;
  aggregates: Aggregates;
}

/** `/`: every project and every language of the instance. */
export function homePage(context: SiteContext): string {
  const { model, aggregates } = context;
  const site = model.site;
  const projects = model.projects.map((project) => projectRow(context, project));
  const languages = model.languages
    .filter((language) => aggregates.language(language).total > 0)
    .map((language) =>
      languageRow(
        language,
        aggregates.language(language),
        true,
        link(site, webPath.language(language.code)),
      ),
    );
  return page(site, {
    title: 'Translation status',
    dir: 'ltr',
    crumbs: [{ name: 'Translation status' }],
    api: { href: link(site, apiPath.root()), label: 'The API root' },
    body:
      statusTable('projects', 'Projects', byName(projects)) +
      statusTable('languages', 'Languages', byName(languages)),
  });
}

export function projectPage(context: SiteContext, project: Project): string {
  const { model, aggregates } = context;
  const site = model.site;
  const review = projectHasReview(project);
  const top = project.components
    .filter((c) => c.category === null)
    .map((c) => componentRow(context, c));
  const categories = project.categories
    .filter((c) => c.parent === null)
    .map((c) => categoryRow(context, c));
  const languages = [...aggregates.projectLanguages(project)].map(([language, counters]) =>
    languageRow(language, counters, review, projectLanguagePath(site, project, language)),
  );
  return page(site, {
    title: project.name,
    dir: 'ltr',
    crumbs: [home(site), { name: project.name }],
    api: { href: link(site, apiPath.project(project.slug)), label: 'This project' },
    body:
      badge(site, project, null, null) +
      summary(aggregates.project(project), review) +
      (categories.length > 0 ? statusTable('categories', 'Categories', byName(categories)) : '') +
      statusTable('components', 'Components', byName(top)) +
      statusTable('languages', 'Languages', byName(languages)),
  });
}

/** A category's page (2026.8): its components and the categories inside it. */
export function categoryPage(context: SiteContext, category: Category): string {
  const { model, aggregates } = context;
  const site = model.site;
  const project = category.project;
  const components = project.components
    .filter((c) => c.category === category)
    .map((c) => componentRow(context, c));
  const inside = project.categories
    .filter((c) => c.parent === category)
    .map((c) => categoryRow(context, c));
  return page(site, {
    title: category.name,
    dir: 'ltr',
    crumbs: [
      home(site),
      projectCrumb(site, project),
      ...categoryCrumbs(site, category.parent),
      { name: category.name },
    ],
    api: { href: link(site, apiPath.category(category.id)), label: 'This category' },
    body:
      summary(aggregates.category(category), projectHasReview(project)) +
      (inside.length > 0 ? statusTable('categories', 'Categories', byName(inside)) : '') +
      statusTable('components', 'Components', byName(components)),
  });
}

export function componentPage(context: SiteContext, component: Component): string {
  const { model, aggregates } = context;
  const site = model.site;
  const project = component.project;
  const rows = component.translations.map((t): StatusRow => ({
    name: t.language.name,
    href: link(
      site,
      webPath.translation(project.slug, componentWebPath(component), t.language.code),
    ),
    counters: t.counters,
    review: translationHasReview(t),
    dir: t.language.direction === 'rtl' ? 'rtl' : undefined,
    lastAuthor: t.lastAuthor,
  }));
  return page(site, {
    title: component.name,
    dir: 'ltr',
    crumbs: [
      home(site),
      projectCrumb(site, project),
      ...categoryCrumbs(site, component.category),
      { name: component.name },
    ],
    api: {
      href: link(site, apiPath.component(project.slug, componentSegment(component))),
      label: 'This component',
    },
    body:
      badge(site, project, null, component) +
      summary(aggregates.component(component), projectHasReview(project)) +
      statusTable('translations', 'Translations', byName(rows), true) +
      exportsLinks(site, project, component),
  });
}

/** A translation's page, or (`translate`) its translate page: the same figures and a word on where editing happens. */
export function translationPage(
  context: SiteContext,
  translation: Translation,
  translate: boolean,
): string {
  const site = context.model.site;
  const { component, language } = translation;
  const project = component.project;
  const web = componentWebPath(component);
  const own = link(site, webPath.translation(project.slug, web, language.code));
  const notice = translate
    ? readOnlyNotice(site, webPath.translate(project.slug, web, language.code), own, null)
    : '';
  return page(site, {
    title: `${component.name} — ${language.name}`,
    dir: language.direction,
    crumbs: [
      home(site),
      projectCrumb(site, project),
      ...categoryCrumbs(site, component.category),
      { name: component.name, href: link(site, webPath.component(project.slug, web)) },
      translate ? { name: language.name, href: own } : { name: language.name },
      ...(translate ? [{ name: 'Translate' }] : []),
    ],
    api: {
      href: link(
        site,
        apiPath.translation(project.slug, componentSegment(component), language.code),
      ),
      label: 'This translation',
    },
    body:
      notice +
      badge(site, project, language, component) +
      summary(translation.counters, translationHasReview(translation), translation.lastAuthor) +
      `<p>Language: <a href="${link(site, webPath.language(language.code))}">${escapeHtml(language.name)}</a> ` +
      `(<a href="${projectLanguagePath(site, project, language)}">in ${escapeHtml(project.name)}</a>)` +
      (translate
        ? ''
        : ` · <a href="${link(site, webPath.translate(project.slug, web, language.code))}">Translate</a>`) +
      `</p>\n`,
  });
}

/** `/languages/<code>/`: the language in every project that has it. */
export function languagePage(
  context: SiteContext,
  language: Language,
  projects: readonly Project[],
): string {
  const { model, aggregates } = context;
  const site = model.site;
  const rows = projects.map((project) => ({
    ...projectRow(context, project),
    href: projectLanguagePath(site, project, language),
    counters: aggregates.projectLanguages(project).get(language)!,
  }));
  return page(site, {
    title: language.name,
    dir: language.direction,
    crumbs: [home(site), { name: language.name }],
    api: { href: link(site, apiPath.language(language.code)), label: 'This language' },
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
  context: SiteContext,
  project: Project,
  language: Language,
  mode: 'status' | 'share' | 'translate',
): string {
  const { model, aggregates } = context;
  const site = model.site;
  const rows: StatusRow[] = [];
  for (const component of project.components) {
    const translation = component.translations.find((t) => t.language === language);
    if (!translation) continue;
    rows.push({
      name: component.name,
      href: link(
        site,
        webPath.translation(project.slug, componentWebPath(component), language.code),
      ),
      counters: translation.counters,
      review: translationHasReview(translation),
      lastAuthor: translation.lastAuthor,
    });
  }
  const own = projectLanguagePath(site, project, language);
  const share = (site.weblateVersion === '4' ? webPath.share : webPath.shareCurrent)(
    project.slug,
    language.code,
  );
  const intro = {
    status: '',
    share: readOnlyNotice(
      site,
      share,
      null,
      `${project.name} is being translated into ${language.name}.`,
    ),
    translate: readOnlyNotice(
      site,
      webPath.projectLanguageTranslate(project.slug, language.code),
      null,
      null,
    ),
  }[mode];
  return page(site, {
    title: `${project.name} — ${language.name}`,
    dir: language.direction,
    crumbs: [
      home(site),
      projectCrumb(site, project),
      mode === 'status' ? { name: language.name } : { name: language.name, href: own },
      ...(mode === 'status' ? [] : [{ name: mode === 'share' ? 'Get involved' : 'Translate' }]),
    ],
    api: {
      href: link(site, apiPath.projectLanguages(project.slug)),
      label: 'The languages of this project',
    },
    body:
      intro +
      badge(site, project, language, null) +
      summary(aggregates.projectLanguages(project).get(language)!, projectHasReview(project)) +
      statusTable('components', 'Components', byName(rows), true),
  });
}

/** Root-relative URL of a path of the site (below the base URL's path). */
function link(site: Site, path: string): string {
  return basePath(site) + path;
}

/** The page of a language within a project, in the site's flavour. */
function projectLanguagePath(site: Site, project: Project, language: Language): string {
  return link(site, projectLanguageWebPath(site, project, language));
}

/** The web path of a language within a project, in the site's flavour (below the web URL). */
export function projectLanguageWebPath(site: Site, project: Project, language: Language): string {
  return site.weblateVersion === '4'
    ? `${webPath.language(language.code)}${project.slug}/`
    : webPath.projectLanguage(project.slug, language.code);
}

/** The folder of an object's badge and charts, in the site's flavour. */
export function widgetFolder(
  site: Site,
  project: Project,
  language: Language | null,
  component: Component | null,
): string {
  const c =
    component === null
      ? null
      : site.weblateVersion === '4'
        ? component.slug
        : componentWebPath(component);
  return (site.weblateVersion === '4' ? sitePath.widgets : sitePath.widget)(
    project.slug,
    language?.code ?? null,
    c,
  );
}

// --- internal ---

/** A page of the site: the frame with the one stylesheet. */
function page(site: Site, frame: Omit<PageFrame, 'stylesheet'>): string {
  return renderPage({ ...frame, stylesheet: link(site, sitePath.stylesheet()) });
}

/**
 * The notice of a translate or share page: this copy is read-only, and where
 * translating happens (the same page on the instance `edit_url` names, when
 * site.yaml says). `lead` opens it; `status` links the translation's status page.
 */
function readOnlyNotice(
  site: Site,
  path: string,
  status: string | null,
  lead: string | null,
): string {
  const where =
    site.editUrl === null
      ? 'Translation happens in the Weblate instance this status was taken from.'
      : `Translation happens on <a href="${escapeHtml(site.editUrl + path)}">${escapeHtml(new URL(site.editUrl).host)}</a>.`;
  const opening = lead === null ? '' : `${escapeHtml(lead)} `;
  const link = status === null ? '' : ` <a href="${status}">The status of this translation</a>`;
  return `<p class="notice" role="note">${opening}This copy is read-only: strings cannot be translated here. ${where}${link}</p>\n`;
}

function home(site: Site): Crumb {
  return { name: 'Translation status', href: link(site, '/') };
}

function projectCrumb(site: Site, project: Project): Crumb {
  return { name: project.name, href: link(site, webPath.project(project.slug)) };
}

/** Crumbs of a category and the ones above it, top first. */
function categoryCrumbs(site: Site, category: Category | null): Crumb[] {
  const crumbs: Crumb[] = [];
  for (let c = category; c; c = c.parent) {
    crumbs.unshift({
      name: c.name,
      href: link(site, webPath.category(c.project.slug, categoryWebPath(c))),
    });
  }
  return crumbs;
}

function projectRow(context: SiteContext, project: Project): StatusRow {
  return {
    name: project.name,
    href: link(context.model.site, webPath.project(project.slug)),
    counters: context.aggregates.project(project),
    review: projectHasReview(project),
  };
}

function componentRow(context: SiteContext, component: Component): StatusRow {
  return {
    name: component.name,
    href: link(
      context.model.site,
      webPath.component(component.project.slug, componentWebPath(component)),
    ),
    counters: context.aggregates.component(component),
    review: projectHasReview(component.project),
  };
}

function categoryRow(context: SiteContext, category: Category): StatusRow {
  return {
    name: category.name,
    href: link(
      context.model.site,
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
  return {
    name: language.name,
    href,
    counters,
    review,
    dir: language.direction === 'rtl' ? 'rtl' : undefined,
  };
}

function byName(rows: StatusRow[]): StatusRow[] {
  return rows.sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.href, b.href));
}

/** The object's badge, shown as Weblate's engage pages show it. */
function badge(
  site: Site,
  project: Project,
  language: Language | null,
  component: Component | null,
): string {
  const src = link(site, widgetFolder(site, project, language, component) + BADGE_FILE);
  return `<p class="badge"><img src="${src}" alt="Translation status badge" height="20"></p>\n`;
}

function exportsLinks(site: Site, project: Project, component: Component): string {
  const folder = link(site, sitePath.exports(project.slug, componentWebPath(component)));
  return `<p>Statistics of every translation: <a href="${folder}">JSON</a>, <a href="${folder}index.csv">CSV</a></p>\n`;
}
