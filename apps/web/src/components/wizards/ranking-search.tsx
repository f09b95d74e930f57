import { RankingRequest, rankingQuery, wizardNavigationState } from '@accord/contracts';
import { Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.ts';
import { NarrowingFilters } from './narrowing-filters.tsx';

/**
 * Search of the Best/Worst Testers and Fragrance Attributes wizards: users with analytics access go
 * to Advanced Analytics with the metric search of the choices (startSearch, hideDescription and
 * 'Confirm your selections:'); everyone else gets the ranked results on the wizard page (`shown`).
 */
export function useRankingSearch() {
  const navigate = useNavigate();
  const { permissions } = useSession();
  const [shown, setShown] = useState<RankingRequest | null>(null);

  const search = (request: RankingRequest) => {
    if (permissions.isAdmin || permissions.canAccessAnalytics) {
      const query = rankingQuery(RankingRequest.parse(request));
      void navigate(paths.analytics.href(), { state: wizardNavigationState(query) });
      return;
    }
    setShown(request);
  };
  return { shown, search, back: () => setShown(null) };
}

/** The wizards' last step: the optional narrowing filters, Back and Search. */
export function NarrowingStep({
  value,
  onChange,
  onBack,
  onSearch,
}: {
  value: Parameters<typeof NarrowingFilters>[0]['value'];
  onChange: (value: Parameters<typeof NarrowingFilters>[0]['value']) => void;
  onBack: () => void;
  onSearch: () => void;
}) {
  return (
    <Stack gap="md" mt="md">
      <NarrowingFilters value={value} onChange={onChange} />
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
        <Button onClick={onSearch}>Search</Button>
      </Group>
    </Stack>
  );
}
