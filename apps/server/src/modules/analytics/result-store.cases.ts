/**
 * The searches and pages whose answers result-store.api.test.ts compares, cell by cell, with those
 * the implementation before the result store gave (fixtures/search-answers.json, written by
 * record-search-answers.ts on the same demo library). The gender and age searches' answers were
 * recorded again when the in-memory demographic sums took a canonical order (each product's rows by
 * gender, then age, rather than the order the database grouped them in): 54 means of the rows
 * changed in their last bit (at most 2.4e-16 relative), none at the precision a screen or file shows
 * them, and four pairs of equal means shown in a page sorted by the mean swapped places.
 */
import type { MetricSearchRequest } from '@accord/contracts';

/** The demo library the answers were recorded on. */
export const ANSWERS_LIBRARY = { studies: 12, seed: 29, respondents: 40, lastYear: 2024 };

const LIKING = { metricType: 'Performance', metric: 'liking' };

/** The searches, by name. */
export const ANSWER_SEARCHES: Record<string, MetricSearchRequest> = {
  'all fragrances': {
    q: {
      metrics: {
        rdfType: 'all',
        metricsList: [
          { ...LIKING, aggregation: 'top_2_box', confidence: true },
          { metricType: 'Performance', metric: 'strength', aggregation: 'mean', confidence: false },
        ],
      },
    },
  } as MetricSearchRequest,
  'gender and age': {
    q: {
      demographics: { gender: ['Female'], startAge: 22, endAge: 48 },
      metrics: {
        rdfType: 'all',
        metricsList: [
          { ...LIKING, aggregation: 'mean', confidence: true },
          { ...LIKING, aggregation: 'top_2_box', confidence: false },
        ],
      },
    },
  } as MetricSearchRequest,
  'yes/no metric': {
    q: {
      metrics: {
        rdfType: 'all',
        metricsList: [
          { metricType: 'Attribute', metric: 'feminine', aggregation: 'top_box', confidence: true },
          { metricType: 'Attribute', metric: 'masculine', aggregation: 'bottom_box', confidence: false },
        ],
      },
    },
  } as MetricSearchRequest,
  'best five by liking': {
    q: {
      metrics: {
        rdfType: 'all',
        metricsList: [
          {
            ...LIKING,
            aggregation: 'top_2_box',
            confidence: true,
            applyThreshold: true,
            threshold: { applyThreshold: true, amount: 5, desc: true, type: 'fragrances' },
          },
        ],
      },
    },
  } as MetricSearchRequest,
  'by category': {
    q: {
      metrics: {
        rdfType: 'all',
        metricsList: [{ ...LIKING, aggregation: 'mean', confidence: true }],
      },
    },
    data: { category: 'metadata', field: 'category' },
  } as MetricSearchRequest,
};

/** The page queries asked of every search (the first column's key replaces COLUMN). */
export const ANSWER_PAGES = [
  '',
  'offset=7&limit=9',
  'limit=0',
  'sort=COLUMN&desc=true',
  'sort=COLUMN&desc=false&limit=200',
  'sort=name&limit=200',
  'sort=c_mi_number&desc=true&offset=3&limit=11',
  'search=a&limit=200',
  'search=A&sort=COLUMN&desc=true&limit=5',
];
