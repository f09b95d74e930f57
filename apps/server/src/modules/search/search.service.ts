/**
 * The study search: who may search for what, tab counts, result pages, option lists under the
 * current filters, exports and the bulk tag edit. Every call is limited to the caller's studies
 * (client scope); concept filters and not-verified studies are for admins; results files (RDF) for
 * admins and users who may download.
 */
import {
  FRAGRANCE_EXPORT_FILE_NAME,
  isClientScopedRole,
  SEARCH_FILE_TABS,
  STUDY_EXPORT_FILE_NAME,
  pageInfo,
  type BulkEditRequest,
  type BulkEditResponse,
  type ConceptRow,
  type DropdownOptionsResponse,
  type FieldDefinition,
  type FragranceExportRequest,
  type FragranceRow,
  type LibraryCounts,
  type OptionDependency,
  type PageInfo,
  type ParsedStudySearchQuery,
  type ResultSortKey,
  type SearchCounts,
  type SearchFileRow,
  type SearchFileTab,
  type StudyExportRequest,
  type StudySummaryRow,
} from '@accord/contracts';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock.ts';
import { canSeeClient, studyByIdScope, studyScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import { sameTagValue } from '../../lib/study-history.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FieldRow, FieldsRepository } from '../fields/fields.repository.ts';
import { mergeOptions } from '../fields/fields.presenter.ts';
import { createAnswerCache } from './answer-cache.ts';
import { searchInWords } from './search-words.ts';
import { compileFilters, expandRegions, s, type CompiledFilters, type FacetGroup } from './search-filters.ts';
import {
  CONCEPT_COLUMNS,
  FRAGRANCE_COLUMNS,
  INTERNAL_EXPORT_COLUMNS,
  STUDY_COLUMNS,
  presentConcept,
  presentFile,
  presentFragrance,
  presentStudySummary,
  type ExportColumn,
} from './search.presenter.ts';
import {
  FACET_SOURCES,
  SORT_COLUMNS,
  STUDY_TAG_COLUMNS,
  type PageRequest,
  type SortedTable,
  type ExportRows,
  type SearchRepository,
  type TagColumn,
} from './search.repository.ts';

export const SEARCH_MESSAGES = {
  conceptFiltersAdminOnly: 'Concept filters are available to admins only.',
  notVerifiedAdminOnly: 'Only admins may search not verified studies.',
  resultsFilesForbidden: 'Results files (RDF) are available to admins and users who may download.',
  unknownField: (key: string) => `Unknown field "${key}".`,
  notCategorical: (label: string) =>
    `"${label}" is not a categorical tag; only categorical tags can be edited in bulk.`,
  notEditable: (label: string) => `"${label}" cannot be edited.`,
  singleValue: (label: string) => `"${label}" takes one value.`,
  valueRequired: (label: string) => `"${label}" needs a value.`,
  unknownStudies: (ids: number[]) =>
    `These studies do not exist or are not visible to you: ${ids.join(', ')}.`,
  unknownColumn: (key: string) => `Unknown column "${key}".`,
  bulkEdited: (updated: number) => `Updated ${updated} ${updated === 1 ? 'study' : 'studies'}.`,
} as const;

type SearchRequestInput = { query: ParsedStudySearchQuery; full_query: { search_phrase?: string | null } };
type PageQueryInput = { page: number; per_page: number; sort?: ResultSortKey; order?: 'asc' | 'desc' };
type BulkEditInput = z.output<typeof BulkEditRequest>;
type StudyExportInput = z.output<typeof StudyExportRequest>;
type FragranceExportInput = z.output<typeof FragranceExportRequest>;

/** A spreadsheet to send: its file name, sheet, columns and rows. */
export interface Spreadsheet {
  fileName: string;
  sheetName: string;
  /** What the file is (the header block's first line). */
  title: string;
  /** The search in words. */
  source: { label: string; value: string }[];
  columns: ExportColumn[];
  /** The rows as the database wrote them (SearchRepository.exportRows), each the columns' values. */
  rows: ExportRows;
}

/** Option lists whose choices follow another field's chosen values (field_options.parent_value). */
const DEPENDENCIES: {
  group: FacetGroup;
  field: string;
  parent: string;
  chosen: (query: ParsedStudySearchQuery) => string[];
}[] = [
  {
    group: 'metadata',
    field: 'product_type',
    parent: 'category',
    chosen: (q) => q.essentials.category ?? [],
  },
  {
    group: 'metadata',
    field: 'country',
    parent: 'region',
    chosen: (q) => expandRegions(q.essentials.region ?? []),
  },
  {
    group: 'fragrance',
    field: 'subfamily',
    parent: 'family',
    chosen: (q) => q.fragranceDetails.family ?? [],
  },
  {
    group: 'fragrance',
    field: 'country',
    parent: 'region',
    chosen: (q) => expandRegions(q.fragranceDetails.region ?? []),
  },
  {
    group: 'concept',
    field: 'country',
    parent: 'region',
    chosen: (q) => expandRegions(q.conceptDetails.region ?? []),
  },
];

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** A field the data holds but field_definitions does not describe. */
function fallbackDefinition(group: FacetGroup, field: string): FieldRow {
  return {
    id: 0,
    field,
    fieldGroup: group,
    label: field,
    type: 'categorical',
    multivalue: false,
    editable: false,
    tagGroup: null,
    options: [],
  };
}

/** Option lists kept per scope and filters while the library is unchanged. */
const OPTIONS_CACHE_ENTRIES = 200;

export function createSearchService(deps: {
  search: SearchRepository;
  fields: FieldsRepository;
  clock: Clock;
}) {
  const { search, fields } = deps;
  // The option counts read every study and fragrance in scope (tens of milliseconds of database time);
  // the search screen asks for them after every filter change, mostly with the same few filters.
  const optionsCache = createAnswerCache<DropdownOptionsResponse>({
    maxEntries: OPTIONS_CACHE_ENTRIES,
    fingerprint: () => search.optionsFingerprint(),
  });

  const scopeOf = (user: AuthUser) => studyScope(user, s.client);
  const maySeeResultsFiles = (user: AuthUser) => user.permissions.isAdmin || user.permissions.allowDownload;

  /** Compiles the filters after checking the caller may use them. */
  function compileFor(user: AuthUser, query: ParsedStudySearchQuery): CompiledFilters {
    const compiled = compileFilters(query);
    if (!user.permissions.isAdmin) {
      if (compiled.concept.length > 0) throw errors.forbidden(SEARCH_MESSAGES.conceptFiltersAdminOnly);
      if (!query.essentials.verified) throw errors.forbidden(SEARCH_MESSAGES.notVerifiedAdminOnly);
    }
    return compiled;
  }

  /** The page asked for; a sort column the table does not show is refused (400). */
  const pageRequest = (page: PageQueryInput, table: SortedTable): PageRequest => {
    if (page.sort && !(page.sort in SORT_COLUMNS[table]))
      throw errors.badRequest(`This table cannot be sorted by ${page.sort}.`, [
        { path: 'sort', message: `This table cannot be sorted by ${page.sort}.` },
      ]);
    return {
      page: page.page,
      perPage: page.per_page,
      ...(page.sort ? { sort: { key: page.sort, order: page.order ?? 'asc' } } : {}),
    };
  };
  const paged = <T>(rows: T[], total: number, page: PageQueryInput) => ({
    rows,
    page: pageInfo(page.page, page.per_page, total),
  });

  const keysOf = (columns: readonly ExportColumn[]) => columns.map((column) => column.key);

  function pickColumns<K extends string>(all: ExportColumn<K>[], keys: string[] | undefined): ExportColumn[] {
    if (!keys) return all;
    const named = unique(keys);
    const picked = named.flatMap((key) => {
      if (INTERNAL_EXPORT_COLUMNS.has(key)) return [];
      const index = named.indexOf(key);
      const found = all.find((column) => column.key === key);
      if (!found)
        throw errors.badRequest(SEARCH_MESSAGES.unknownColumn(key), [
          { path: `columns.${index}`, message: SEARCH_MESSAGES.unknownColumn(key) },
        ]);
      return [found];
    });
    // Only the internal id asked for: the file has the table's columns.
    return picked.length > 0 ? picked : all;
  }

  /** Option lists with their counts, and the dependent lists (see dropdownOptions). */
  async function computeDropdownOptions(
    user: AuthUser,
    query: ParsedStudySearchQuery,
    compiled: CompiledFilters,
  ): Promise<DropdownOptionsResponse> {
    const wanted: Record<FacetGroup, string[]> = {
      metadata: Object.keys(FACET_SOURCES.metadata),
      fragrance: Object.keys(FACET_SOURCES.fragrance),
      concept: user.permissions.isAdmin ? Object.keys(FACET_SOURCES.concept) : [],
    };
    const [definitions, counts] = await Promise.all([
      fields.definitions(),
      search.facetCounts(compiled, scopeOf(user), wanted),
    ]);
    const definitionOf = (group: FacetGroup, field: string) =>
      definitions.find((def) => def.fieldGroup === group && def.field === field) ??
      fallbackDefinition(group, field);

    const present = (group: FacetGroup): FieldDefinition[] =>
      wanted[group].map((field) => {
        const def = definitionOf(group, field);
        let options = mergeOptions(def, counts.get(`${group}.${field}`));
        if (group === 'metadata' && field === 'client')
          options = options.filter((option) => canSeeClient(user, option.value));
        return {
          field,
          label: def.label,
          type: def.type,
          multivalue: def.multivalue,
          editable: def.editable,
          tag_group: def.tagGroup,
          options,
        };
      });

    const dependencies: OptionDependency[] = DEPENDENCIES.filter((dep) =>
      wanted[dep.group].includes(dep.field),
    ).map((dep) => {
      const selected = unique(dep.chosen(query));
      const options = definitionOf(dep.group, dep.field).options;
      const values =
        selected.length === 0
          ? options
          : options.filter((option) => option.parent !== null && selected.includes(option.parent));
      return {
        group: dep.group,
        field: dep.field,
        parent: dep.parent,
        selected,
        values: values.map((option) => option.value),
      };
    });

    return {
      data: {
        fields: {
          metadata: present('metadata'),
          fragrance: present('fragrance'),
          concept: present('concept'),
        },
        dependencies,
      },
    };
  }

  return {
    /** Count badges of every result tab for the filters. */
    async counts(user: AuthUser, request: SearchRequestInput): Promise<SearchCounts> {
      const compiled = compileFor(user, request.query);
      const found = await search.tabCounts(compiled, scopeOf(user), request.full_query.search_phrase);
      return {
        summaries: found.summaries,
        fragrances: found.fragrances,
        concepts: found.concepts,
        questionnaire: found.files.questionnaire,
        screener: found.files.screener,
        protocol: found.files.protocol,
        RDF_report: found.files.report + (maySeeResultsFiles(user) ? found.files.RDF : 0),
      };
    },

    /**
     * Option lists with counts under the current filters (each field under every other filter), and
     * the lists that follow a parent field. Concept fields only for admins; a client-scoped user is
     * offered only their own clients.
     */
    async dropdownOptions(user: AuthUser, query: ParsedStudySearchQuery): Promise<DropdownOptionsResponse> {
      const compiled = compileFor(user, query);
      // The answer depends on the user only through their scope and whether they are an admin.
      const { demographics: _demographics, metrics: _metrics, ...filters } = query;
      const key = JSON.stringify({
        clients: isClientScopedRole(user.roleId) ? [...user.clients].sort() : null,
        admin: user.permissions.isAdmin,
        filters,
      });
      return optionsCache.get(key, () => computeDropdownOptions(user, query, compiled));
    },

    async studySummaries(
      user: AuthUser,
      query: ParsedStudySearchQuery,
      page: PageQueryInput,
    ): Promise<{ rows: StudySummaryRow[]; page: PageInfo }> {
      const found = await search.studySummaries(
        compileFor(user, query),
        scopeOf(user),
        pageRequest(page, 'summaries'),
      );
      return paged(found.rows.map(presentStudySummary), found.total, page);
    },

    async fragrances(
      user: AuthUser,
      query: ParsedStudySearchQuery,
      page: PageQueryInput,
    ): Promise<{ rows: FragranceRow[]; page: PageInfo }> {
      const found = await search.fragrances(
        compileFor(user, query),
        scopeOf(user),
        pageRequest(page, 'fragrances'),
      );
      return paged(found.rows.map(presentFragrance), found.total, page);
    },

    async concepts(
      user: AuthUser,
      query: ParsedStudySearchQuery,
      page: PageQueryInput,
    ): Promise<{ rows: ConceptRow[]; page: PageInfo }> {
      const found = await search.concepts(
        compileFor(user, query),
        scopeOf(user),
        pageRequest(page, 'concepts'),
      );
      return paged(found.rows.map(presentConcept), found.total, page);
    },

    /** Files of one tab; RDF_report lists results and reports, results only for those who may download. */
    async files(
      user: AuthUser,
      tab: SearchFileTab,
      request: SearchRequestInput,
      page: PageQueryInput,
    ): Promise<{ rows: SearchFileRow[]; page: PageInfo }> {
      if (tab === 'RDF' && !maySeeResultsFiles(user))
        throw errors.forbidden(SEARCH_MESSAGES.resultsFilesForbidden);
      const compiled = compileFor(user, request.query);
      const types = SEARCH_FILE_TABS[tab].filter((type) => type !== 'RDF' || maySeeResultsFiles(user));
      const found = await search.files(
        compiled,
        scopeOf(user),
        { types, phrase: request.full_query.search_phrase },
        pageRequest(page, 'files'),
      );
      return paged(found.rows.map(presentFile), found.total, page);
    },

    /**
     * Studies, fragrances and concepts the user may see, without filters: for client and sales
     * users the verified studies of their clients (as their search and a study's page show them).
     */
    async libraryCounts(user: AuthUser): Promise<LibraryCounts> {
      return search.libraryCounts(studyByIdScope(user, s));
    },

    async exportStudies(user: AuthUser, body: StudyExportInput): Promise<Spreadsheet> {
      const columns = pickColumns(STUDY_COLUMNS, body.columns);
      const found = await search.exportRows(
        'summaries',
        compileFor(user, body.q),
        scopeOf(user),
        keysOf(columns),
      );
      return {
        fileName: STUDY_EXPORT_FILE_NAME,
        sheetName: 'Studies',
        title: `Study search: ${found.count} ${found.count === 1 ? 'study' : 'studies'}`,
        source: [{ label: 'Search', value: searchInWords(body.q) }],
        columns,
        rows: found,
      };
    },

    /** The Fragrances tab, or with type concept the Concepts tab (both under the fragrances file name). */
    async exportFragrances(user: AuthUser, body: FragranceExportInput): Promise<Spreadsheet> {
      const compiled = compileFor(user, body.q);
      if (body.type === 'concept') {
        const columns = pickColumns(CONCEPT_COLUMNS, body.columns);
        const found = await search.exportRows('concepts', compiled, scopeOf(user), keysOf(columns));
        return {
          fileName: FRAGRANCE_EXPORT_FILE_NAME,
          sheetName: 'Concepts',
          title: `Study search: ${found.count} ${found.count === 1 ? 'concept' : 'concepts'}`,
          source: [{ label: 'Search', value: searchInWords(body.q) }],
          columns,
          rows: found,
        };
      }
      const columns = pickColumns(FRAGRANCE_COLUMNS, body.columns);
      const found = await search.exportRows('fragrances', compiled, scopeOf(user), keysOf(columns));
      return {
        fileName: FRAGRANCE_EXPORT_FILE_NAME,
        sheetName: 'Fragrances',
        title: `Study search: ${found.count} ${found.count === 1 ? 'fragrance' : 'fragrances'}`,
        source: [{ label: 'Search', value: searchInWords(body.q) }],
        columns,
        rows: found,
      };
    },

    /**
     * Sets categorical tags on many studies at once. Every key is checked against the field
     * definitions (metadata, categorical, editable) and every study must exist and be visible; the
     * change and one history entry per changed study are written in one transaction, so any failure
     * leaves everything as it was. Studies that already hold the values are left untouched.
     */
    async bulkEdit(user: AuthUser, body: BulkEditInput): Promise<BulkEditResponse> {
      const definitions = (await fields.definitions()).filter((def) => def.fieldGroup === 'metadata');
      const edits = body.data.map((row, index): { column: TagColumn; value: string | string[] | null } => {
        const fail = (message: string) =>
          errors.badRequest(message, [{ path: `data.${index}.key`, message }]);
        const def = definitions.find((candidate) => candidate.field === row.key);
        const column = STUDY_TAG_COLUMNS.get(row.key);
        if (!def) throw fail(SEARCH_MESSAGES.unknownField(row.key));
        if (def.type !== 'categorical') throw fail(SEARCH_MESSAGES.notCategorical(def.label));
        if (!def.editable || !column) throw fail(SEARCH_MESSAGES.notEditable(def.label));
        const values = unique(row.key === 'region' ? expandRegions(row.value) : row.value);
        if (column.array) return { column, value: values };
        if (values.length > 1) throw fail(SEARCH_MESSAGES.singleValue(def.label));
        if (values.length === 0 && column.notNull) throw fail(SEARCH_MESSAGES.valueRequired(def.label));
        return { column, value: values[0] ?? null };
      });
      const studyIds = unique(body.studies);
      const columns: TagColumn[] = edits.map((edit) => edit.column);

      const updated = await search.bulkEditTags(
        studyIds,
        scopeOf(user),
        columns,
        (current) => {
          const missing = studyIds.filter((id) => !current.has(id));
          if (missing.length > 0) {
            const message = SEARCH_MESSAGES.unknownStudies(missing);
            throw errors.badRequest(message, [{ path: 'studies', message }]);
          }
          const history = studyIds
            .map((studyId) => {
              const tags = current.get(studyId)!;
              const changes = edits
                .filter((edit) => !sameTagValue(tags[edit.column.field], edit.value))
                .map((edit) => ({
                  field: edit.column.field,
                  old_value: tags[edit.column.field] ?? null,
                  new_value: edit.value,
                }));
              return { studyId, changes };
            })
            .filter((entry) => entry.changes.length > 0);
          return {
            set: Object.fromEntries(edits.map((edit) => [edit.column.field, edit.value])),
            changedStudyIds: history.map((entry) => entry.studyId),
            history,
          };
        },
        { userId: user.id, userEmail: user.email, now: deps.clock.now() },
      );
      return { message: SEARCH_MESSAGES.bulkEdited(updated), updated };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
