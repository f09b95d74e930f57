import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Checkbox,
  Collapse,
  FileButton,
  Group,
  Progress,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import type { FileIssue, FileTreeNode } from '@accord/contracts';
import {
  IconChevronRight,
  IconDownload,
  IconFile,
  IconFolder,
  IconFolderOpen,
  IconReplace,
} from '@tabler/icons-react';
import { useRef, useState } from 'react';

export interface ReplaceState {
  filePath: string;
  file: File;
  percent: number | null;
}

export interface TreeActions {
  replacing: ReplaceState | null;
  onDownload(node: FileTreeNode): void;
  onChoose(node: FileTreeNode, file: File): void;
  onUpload(): void;
  onCancel(): void;
  /** Replacing is possible (the upload ended with errors). */
  canReplace: boolean;
  /** CMI numbers of the studies chosen to replace the library's study of the same CMI number. */
  replaceCmis: string[];
  onToggleReplace(cmi: string, replace: boolean): void;
}

const ALREADY_IN_LIBRARY = 'Study already in the library';

/** The CMI number of a study folder that is already in the library, or null. */
export function existingStudyCmi(folder: FileTreeNode): string | null {
  const issues = (node: FileTreeNode): FileIssue[] => [
    ...node.errors,
    ...(node.children ?? []).flatMap(issues),
  ];
  const found = issues(folder).find((i) => i.high_msg === ALREADY_IN_LIBRARY);
  if (!found) return null;
  return /^Study (.+) is already in the library\./.exec(found.msg)?.[1] ?? folder.name;
}

const where = (issue: FileIssue) =>
  [
    issue.path.sheet && `sheet ${issue.path.sheet}`,
    issue.path.row !== undefined && `row ${issue.path.row}`,
    issue.path.column && `column ${issue.path.column}`,
  ]
    .filter(Boolean)
    .join(', ') || '-';

const count = (issues: FileIssue[], level: FileIssue['level']) =>
  issues.filter((i) => i.level === level).length;

function IssueBadges({ issues }: { issues: FileIssue[] }) {
  const errors = count(issues, 'error');
  const warnings = count(issues, 'warning');
  return (
    <>
      {errors > 0 && (
        <Badge color="red.9" variant="filled" tt="none">
          {errors} error{errors === 1 ? '' : 's'}
        </Badge>
      )}
      {warnings > 0 && (
        <Badge color="yellow.4" variant="filled" autoContrast tt="none">
          {warnings} warning{warnings === 1 ? '' : 's'}
        </Badge>
      )}
    </>
  );
}

/** The problems of a file or folder: level, message, details and where. */
export function IssueTable({ issues, label }: { issues: FileIssue[]; label: string }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table withTableBorder verticalSpacing={4} fz="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={96}>Level</Table.Th>
            <Table.Th>Problem</Table.Th>
            <Table.Th>Details</Table.Th>
            <Table.Th>Where</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {issues.map((issue, i) => (
            <Table.Tr key={i}>
              <Table.Td>
                <Badge
                  color={issue.level === 'error' ? 'red.9' : 'yellow.4'}
                  variant="filled"
                  autoContrast
                  tt="none"
                  w="max-content"
                  style={{ overflow: 'visible' }}
                >
                  {issue.level}
                </Badge>
              </Table.Td>
              <Table.Td>{issue.high_msg}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{issue.msg}</Table.Td>
              <Table.Td>{where(issue)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function FileRow({ node, actions }: { node: FileTreeNode; actions: TreeActions }) {
  const replacing = actions.replacing?.filePath === node.file_path ? actions.replacing : null;
  const resetInput = useRef<() => void>(null);
  return (
    <Stack gap={4} py={4}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <IconFile size={18} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {node.name}
          </Text>
          <IssueBadges issues={node.errors} />
        </Group>
        <Group gap={4} wrap="nowrap">
          <Tooltip label="Download">
            <ActionIcon
              variant="subtle"
              aria-label={`Download ${node.name}`}
              onClick={() => actions.onDownload(node)}
            >
              <IconDownload size={18} />
            </ActionIcon>
          </Tooltip>
          {actions.canReplace && (
            <FileButton
              resetRef={resetInput}
              onChange={(file) => {
                if (file) actions.onChoose(node, file);
                // The file is held in the page state: emptying the input lets the same file be chosen
                // again after Cancel (an input keeping it would not report the choice).
                resetInput.current?.();
              }}
            >
              {(props) => (
                <Tooltip label="Replace">
                  <ActionIcon
                    {...props}
                    variant="subtle"
                    aria-label={`Replace ${node.name}`}
                    disabled={actions.replacing?.percent !== undefined && actions.replacing?.percent !== null}
                  >
                    <IconReplace size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </FileButton>
          )}
        </Group>
      </Group>
      {replacing && (
        <Group gap="sm" pl={26} wrap="wrap">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            New file: {replacing.file.name}
          </Text>
          {replacing.percent === null ? (
            <>
              <Button size="xs" onClick={actions.onUpload}>
                Upload
              </Button>
              <Button size="xs" variant="default" onClick={actions.onCancel}>
                Cancel
              </Button>
            </>
          ) : (
            <Progress
              value={replacing.percent}
              w={160}
              striped
              animated
              aria-label={`Uploading ${replacing.file.name}`}
            />
          )}
        </Group>
      )}
      {node.errors.length > 0 && (
        <Box pl={26}>
          <IssueTable issues={node.errors} label={`Problems of ${node.name}`} />
        </Box>
      )}
    </Stack>
  );
}

function FolderRow({ node, actions, depth }: { node: FileTreeNode; actions: TreeActions; depth: number }) {
  const [open, setOpen] = useState(true);
  const children = node.children ?? [];
  const Icon = open ? IconFolderOpen : IconFolder;
  const existing = depth === 0 && actions.canReplace ? existingStudyCmi(node) : null;
  return (
    <Stack gap={2}>
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} py={4}>
        <Group gap="xs" wrap="nowrap">
          <IconChevronRight
            size={16}
            aria-hidden
            style={{
              transform: open ? 'rotate(90deg)' : undefined,
              transition: 'transform 150ms',
              flexShrink: 0,
            }}
          />
          <Icon size={18} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" fw={depth === 0 ? 600 : 500} style={{ overflowWrap: 'anywhere' }}>
            {node.name}
          </Text>
          <IssueBadges issues={node.errors} />
        </Group>
      </UnstyledButton>
      {existing && (
        <Checkbox
          ml={48}
          my={4}
          label="Replace the existing study"
          description={`Study ${existing} is already in the library; Process Studies replaces it with this one.`}
          checked={actions.replaceCmis.includes(existing)}
          onChange={(event) => actions.onToggleReplace(existing, event.currentTarget.checked)}
          styles={{ description: { overflowWrap: 'anywhere' } }}
        />
      )}
      <Collapse expanded={open} keepMountedMode="display-none">
        <Stack gap={0} pl="lg" style={{ borderLeft: '1px solid var(--mantine-color-gray-3)' }} ml={7}>
          {node.errors.length > 0 && <IssueTable issues={node.errors} label={`Problems of ${node.name}`} />}
          <ProcessTree nodes={children} actions={actions} depth={depth + 1} />
        </Stack>
      </Collapse>
    </Stack>
  );
}

/** The found studies as folders and files, each with its problems, downloads and replacements. */
export function ProcessTree({
  nodes,
  actions,
  depth = 0,
}: {
  nodes: FileTreeNode[];
  actions: TreeActions;
  depth?: number;
}) {
  return (
    <Stack gap={0}>
      {nodes.map((node) =>
        node.type === 'directory' ? (
          <FolderRow key={node.file_path} node={node} actions={actions} depth={depth} />
        ) : (
          <FileRow key={node.file_path} node={node} actions={actions} />
        ),
      )}
    </Stack>
  );
}
