import { describe, expect, it } from 'vitest';
import { timeSeriesLabel } from './profile-format.ts';

describe('timeSeriesLabel', () => {
  it('names a metric as the profile rows do', () => {
    expect(timeSeriesLabel('attention', [{ metric: 'attention', metric_name: 'Attention span' }])).toBe(
      'Attention span',
    );
  });

  it('names the EEG metrics the rows do not, never by their keys', () => {
    expect(timeSeriesLabel('hfd_hedonic', [])).toBe('HFD Hedonic');
    expect(
      timeSeriesLabel('energizing_eeg', [{ metric: 'energizing_eeg', metric_name: 'energizing_eeg' }]),
    ).toBe('Energizing (EEG)');
    expect(timeSeriesLabel('frontal_asymmetry', [])).toBe('Frontal asymmetry');
  });
});
