import {
  APAC_SUBREGIONS,
  WIZARD_ATTRIBUTE_TYPE_TEXT,
  WIZARD_ATTRIBUTES,
  type RankingRequest,
  type WizardSource,
} from '@accord/contracts';

const SOURCE_TEXT: Record<WizardSource, string> = {
  rdf: 'top 2 box liking (Explicit)',
  eeg: 'mean EEG hedonic score (Implicit)',
  all: 'top 2 box liking and mean EEG hedonic score (All)',
};

/**
 * The chosen criteria of a ranking as one sentence, e.g. "Best 10 % of fragrances by top 2 box
 * liking (Explicit); client: Acme; years 2020 to 2023." Regions keep the three APAC sub-regions
 * behind APAC, as the region list shows them.
 */
export function rankingSentence(request: RankingRequest): string {
  const amount =
    request.radioPercentType === 'percentage' ? `${request.amount} % of` : String(request.amount);
  const what = request.kind === 'testers' ? request.type : 'fragrances';
  const by =
    request.kind === 'testers'
      ? SOURCE_TEXT[request.rdfType]
      : `the top 2 box score of ${
          WIZARD_ATTRIBUTES[request.attributeType].find((entry) => entry.field === request.attribute)
            ?.label ?? request.attribute
        } (${WIZARD_ATTRIBUTE_TYPE_TEXT[request.attributeType].label})`;
  const narrowing = request.narrowing ?? {};
  const regions = narrowing.region ?? [];
  const shownRegions = regions.includes('APAC')
    ? regions.filter((region) => !APAC_SUBREGIONS.includes(region))
    : regions;
  const lists: [string, readonly string[]][] = [
    ['client', narrowing.client ?? []],
    ['region', shownRegions],
    ['business unit', narrowing.businessUnit ?? []],
    ['category', narrowing.category ?? []],
    ['product type', narrowing.product ?? []],
  ];
  const parts = lists
    .filter(([, values]) => values.length > 0)
    .map(([label, values]) => `${label}: ${values.join(', ')}`);
  if (narrowing.year) parts.push(`years ${narrowing.year[0]} to ${narrowing.year[1]}`);
  const head = `${request.radioDesc === 'best' ? 'Best' : 'Worst'} ${amount} ${what} by ${by}`;
  return parts.length > 0 ? `${head}; ${parts.join('; ')}.` : `${head}, in every study you may see.`;
}
