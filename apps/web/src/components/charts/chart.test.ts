import { format } from 'echarts/core';
import { describe, expect, it } from 'vitest';
import { encodeHTML } from './chart.tsx';

describe('encodeHTML', () => {
  it('escapes a tooltip text as ECharts does', () => {
    for (const text of [
      'Rose & Oud',
      '<b>Bold</b>',
      `"quoted" and 'single'`,
      'plain text',
      '',
      '&amp; already',
    ]) {
      expect(encodeHTML(text)).toBe(format.encodeHTML(text));
    }
    expect(encodeHTML(`<a href="x">Tom's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom&#39;s&lt;/a&gt;');
  });
});
