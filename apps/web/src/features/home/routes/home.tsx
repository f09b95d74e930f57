import { SimpleGrid, Text } from '@mantine/core';
import { PRODUCT_NAME } from '@accord/contracts';
import { PageHeader } from '../../../components/page-header.tsx';
import { visibleSections } from '../../../config/navigation.ts';
import { useSession } from '../../../lib/session.ts';
import { SectionCard } from '../components/section-card.tsx';

/** Home: the card grid of the sections this user may use. */
export function Component() {
  const { user, permissions } = useSession();
  const sections = visibleSections(permissions);
  return (
    <>
      <PageHeader
        title={user ? `Welcome, ${user.screenname}` : 'Welcome'}
        breadcrumbs={[{ label: 'Home' }]}
        description={<Text span>Choose where to start in {PRODUCT_NAME}.</Text>}
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {sections.map((section) => (
          <SectionCard key={section.key} section={section} />
        ))}
      </SimpleGrid>
    </>
  );
}
