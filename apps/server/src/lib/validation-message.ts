/**
 * Request validation problems in words for the people who read them (the web app shows a 400's
 * message): "CMI # must be at most 200 characters." rather than zod's
 * "query.essentials.cmiNumber: Too big: expected string to have <=200 characters". The field is
 * named by the label the screens give it, or else by its own key; a schema's own message is kept,
 * after the field's name. The dotted path stays in the answer's details for programs.
 */
import { z } from 'zod';

/** One validation issue as fastify-type-provider-zod reports it. */
export interface ValidationIssue {
  keyword: string;
  path: readonly (string | number)[];
  message: string;
  params: Record<string, unknown>;
}

/** The screens' labels of the filter fields (document 2 section 3) and other keys people type into. */
const FIELD_LABELS: Record<string, string> = {
  projectName: 'Project name',
  paceNumber: 'CX/Pace #',
  cmiNumber: 'CMI #',
  fragranceName: 'Fragrance name',
  perfumerName: 'Perfumer name',
  sapNumber: '6 Digit Code (SAP)',
  objectiveAndStandards: 'Objective and action standards',
  ingredient1: 'Ingredient 1',
  ingredient2: 'Ingredient 2',
  client: 'Client',
  businessUnit: 'Business unit',
  category: 'Category',
  product: 'Product',
  region: 'Region',
  country: 'Country',
  startYear: 'Start year',
  endYear: 'End year',
  startAge: 'Start age',
  endAge: 'End age',
  c_mi_number: 'CMI #',
  pace_number: 'CX/Pace #',
  project_name: 'Project name',
  search_phrase: 'Search phrase',
  slug: 'Search name',
  email: 'Email',
  password: 'Password',
  firstname: 'First name',
  lastname: 'Last name',
  fragrance_code: 'Fragrance code',
  concept_code: 'Concept code',
};

const defaults = z.locales.en();

/** The name of the field an issue is about: its label, else its key; null for the whole request. */
export function fieldName(path: readonly (string | number)[]): string | null {
  // List positions ('0', 1) are not names: the list's own key names the field.
  const key = [...path]
    .reverse()
    .find((segment): segment is string => typeof segment === 'string' && !/^\d+$/.test(segment));
  if (key === undefined) return null;
  return FIELD_LABELS[key] ?? key;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
};

const list = (values: unknown): string =>
  Array.isArray(values) ? values.map((value) => JSON.stringify(value)).join(', ') : '';

/** zod's default wording of an issue (to tell a schema's own message from it). */
function defaultMessage(issue: ValidationIssue): string | undefined {
  const raw = { ...issue.params, code: issue.keyword, path: [...issue.path] } as Parameters<
    typeof defaults.localeError
  >[0];
  const found = defaults.localeError(raw);
  return typeof found === 'string' ? found : found?.message;
}

/** What is wrong, in words, beginning with the field's name. */
function phrase(issue: ValidationIssue, name: string): string {
  const params = issue.params;
  const origin = String(params.origin ?? '');
  const strict = params.inclusive === false;
  switch (issue.keyword) {
    case 'too_big': {
      const maximum = Number(params.maximum);
      if (origin === 'string')
        return `${name} must be at most ${strict ? maximum - 1 : maximum} characters long.`;
      if (origin === 'array' || origin === 'set')
        return `${name} may hold at most ${strict ? maximum - 1 : maximum} values.`;
      return `${name} must be ${strict ? 'less than' : 'at most'} ${maximum}.`;
    }
    case 'too_small': {
      const minimum = Number(params.minimum);
      if (origin === 'string')
        return minimum <= 1
          ? `${name} must not be empty.`
          : `${name} must be at least ${minimum} characters long.`;
      if (origin === 'array' || origin === 'set')
        return minimum <= 1
          ? `${name} needs at least one value.`
          : `${name} needs at least ${minimum} values.`;
      return `${name} must be ${strict ? 'more than' : 'at least'} ${minimum}.`;
    }
    case 'invalid_type': {
      const expected = String(params.expected ?? '');
      if (/received undefined$/.test(issue.message)) return `${name} is required.`;
      return `${name} must be ${TYPE_WORDS[expected] ?? expected}.`;
    }
    case 'invalid_value':
      return `${name} must be one of ${list(params.values)}.`;
    case 'unrecognized_keys': {
      const keys = Array.isArray(params.keys) ? params.keys.map(String) : [];
      const where = name === 'the request' ? '' : ` in ${name}`;
      return `Unknown field${keys.length === 1 ? '' : 's'}${where}: ${keys.join(', ')}.`;
    }
    case 'invalid_format':
      return `${name} is not a valid ${String(params.format ?? 'value')}.`;
    case 'invalid_union': {
      // The branch that came closest tells what is wrong; a discriminator names the choice itself.
      const branches = (Array.isArray(params.errors) ? params.errors : []) as {
        code: string;
        path: (string | number)[];
        message: string;
      }[][];
      const closest = branches.filter((branch) => branch.length > 0).sort((a, b) => a.length - b.length)[0];
      if (closest?.[0]) {
        const { code, path, message, ...rest } = closest[0];
        return issueInWords({ keyword: code, path: [...issue.path, ...path], message, params: rest });
      }
      if (typeof params.discriminator === 'string')
        return `${name}: ${params.discriminator} is not one of the accepted values.`;
      return `${name} is not valid.`;
    }
    case 'not_multiple_of':
      return `${name} must be a multiple of ${String(params.divisor)}.`;
    default:
      return `${name} is not valid.`;
  }
}

/** The message of one validation issue, in words. */
export function issueInWords(issue: ValidationIssue): string {
  const name = fieldName(issue.path);
  // zod's wording of a wrong type ends with what it received, which the issue does not carry.
  const own =
    issue.keyword === 'invalid_type'
      ? !issue.message.startsWith(`Invalid input: expected ${String(issue.params.expected)}`)
      : issue.message !== defaultMessage(issue);
  if (own) return name ? `${name}: ${issue.message}` : issue.message;
  const subject = name ?? 'the request';
  const text = phrase(issue, subject);
  // A key keeps its spelling ('per_page is required.'); only 'the request' opens with a capital.
  return text.startsWith('the request') ? `T${text.slice(1)}` : text;
}
