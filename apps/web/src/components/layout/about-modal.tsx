import { Button, Group, Modal, Table } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { PRODUCT_NAME } from '@accord/contracts';
import { SUPPORT_EMAIL, SUPPORT_PHONE } from '../../config/support.ts';
import { useVersionQuery } from '../../lib/api/get-version.ts';

/** The footer's info box: versions and support contacts (document 1 section 2). */
export function AboutModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const version = useVersionQuery();
  const rows: [string, string][] = [
    ['Front-end version', __APP_VERSION__],
    ['API version', version.data?.version ?? 'unknown'],
    ['Support phone', SUPPORT_PHONE],
  ];
  return (
    <Modal opened={opened} onClose={onClose} title={`About ${PRODUCT_NAME}`} centered>
      <Table variant="vertical" layout="fixed" withTableBorder mb="lg">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={170}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end">
        <Button
          component="a"
          href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(`${PRODUCT_NAME} support`)}`}
          variant="default"
          leftSection={<IconMail size={16} aria-hidden="true" />}
        >
          EMAIL SUPPORT
        </Button>
        <Button onClick={onClose}>CLOSE</Button>
      </Group>
    </Modal>
  );
}
