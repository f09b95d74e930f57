import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, filterWords, harmonisationWords, ruleWords, scaleWords } from './trace-words.ts';

describe('the trace in words', () => {
  it('names the original scale', () => {
    expect(scaleWords(1, 9, 'numerical')).toBe('1 to 9 (9 points)');
    expect(scaleWords(0, 10, 'numerical')).toBe('0 to 10 (11 points)');
    expect(scaleWords(0, 1, 'binary')).toBe('0 or 1 (yes/no)');
    expect(scaleWords(null, null, 'eeg')).toBe('Continuous EEG score');
    expect(scaleWords(null, 5, 'numerical')).toBe('No scale recorded');
  });

  it('writes the harmonisation formula of METRICS.md section 1', () => {
    expect(harmonisationWords(1, 9, 'numerical')).toBe('h = 1 + 4 × (v − 1) / 8.');
    expect(harmonisationWords(0, 10, 'numerical')).toBe('h = 1 + 4 × v / 10.');
    expect(harmonisationWords(1, 5, 'jar')).toBe('Already on the 5-point scale: h = v.');
    expect(harmonisationWords(1, 2, 'binary')).toBe('h = 1 + 4 × (v − 1) / 1: 1 becomes 1, 2 becomes 5.');
    expect(harmonisationWords(-3, 3, 'numerical')).toBe('h = 1 + 4 × (v + 3) / 6.');
    expect(harmonisationWords(0, 100, 'eeg')).toBe('Not harmonised: the EEG score is used as it is.');
    expect(harmonisationWords(5, 5, 'numerical')).toBe('Not harmonised: the question has no scale.');
  });

  it('states the rule of an aggregation for pooled answers and for product scores', () => {
    expect(ruleWords('top_2_box', 'answers')).toBe('Share of the answers counted with h ≥ 3.5.');
    expect(ruleWords('just_right', 'answers')).toBe('Share of the answers counted with 2.5 < h < 3.5.');
    expect(ruleWords('variance', 'answers')).toBe(
      'Sample variance (n − 1) of the harmonised answers over the answers counted.',
    );
    expect(ruleWords('mean', 'products')).toBe(
      'Arithmetic mean of the harmonised answers h over each product’s answers, giving one score per product; the value is the mean of the product scores (each product counts once).',
    );
  });

  it('writes the respondent filters, or that there are none', () => {
    expect(filterWords({}, [])).toEqual(['No respondent filters: every respondent of the products.']);
    expect(
      filterWords({ gender: ['Female', 'Male', 'Female'], socialClass: ['AB'], startAge: 20, endAge: 30 }, [
        { field: 'bumo', filter: { type: 'equal', value: 'Brand X' } },
        { field: 'age', filter: { type: 'range', from: 25, to: 28 } },
      ]),
    ).toEqual([
      'Gender: Female or Male',
      'Social class: AB',
      'Age: 20 to 30',
      'Brand used most often: Brand X',
      'Age: 25 to 28',
    ]);
    expect(filterWords({ startAge: 40 }, [])).toEqual(['Age: 40 or older']);
    expect(filterWords({ endAge: 40 }, [])).toEqual(['Age: 40 or younger']);
  });

  it('quotes csv cells that need it and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell(3.25)).toBe('3.25');
    expect(csvCell(-2)).toBe('-2');
    expect(csvLine(['a', 1, 'b,c'])).toBe('a,1,"b,c"\r\n');
  });
});
