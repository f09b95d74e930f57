/**
 * The records analytics passes between its parts: the metric catalogue, the products of a search,
 * their sufficient statistics, out-of-scale answers and the demographic statistics rows. They sit
 * below the repository, the metric arithmetic (analytics-metrics.ts) and the demographic tables, so
 * those import from here and never from each other.
 */

/** A metric of the catalogue: its name, label, type (Performance, Attribute, ...) and scale kind. */
export interface MetricRecord {
  id: number;
  name: string;
  label: string;
  metricType: string;
  kind: 'hedonic' | 'jar' | 'binary' | 'eeg' | 'implicit';
}

/** A fragrance or concept of a study, with the study details a search shows. */
export interface ProductRecord {
  id: number;
  studyId: number;
  kind: 'fragrance' | 'concept';
  code: string;
  name: string | null;
  cMiNumber: string;
  projectName: string;
  client: string;
  category: string | null;
  productType: string | null;
  rdfType: 'rdf' | 'eeg' | 'irt';
  /** A fragrance's 6-digit (SAP) code, when it has one. */
  sapCode?: string | null;
}

/** Sufficient statistics of one product and metric (METRICS.md section 1 boxes). */
export interface MetricSums {
  productId: number;
  metricId: number;
  n: number;
  sum: number;
  sumSq: number;
  nTopBox: number;
  nTop2Box: number;
  nJustRight: number;
  nBottom2Box: number;
  nBottomBox: number;
}

/** Answers of one product and question outside the question's scale. */
export interface OutOfScaleRow {
  productId: number;
  studyId: number;
  qid: string;
  filename: string;
  count: number;
}

/** Which respondents a filter keeps, by gender and age (null when the respondent gave none). */
export type DemographicMatch = (gender: string | null, age: number | null) => boolean;

/** One row as loaded: product id, gender, age, then the sums in MetricSums order (n to nBottomBox). */
export type DemographicRow = [
  productId: number,
  gender: string | null,
  age: number | null,
  n: number,
  sum: number,
  sumSq: number,
  nTopBox: number,
  nTop2Box: number,
  nJustRight: number,
  nBottom2Box: number,
  nBottomBox: number,
];
