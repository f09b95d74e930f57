import { Badge, Box, Button, Collapse, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  STUDY_FILE_TYPES,
  STUDY_FOLDERS,
  type StudyFileEntry,
  type StudyFileError,
  type StudyFileNode,
  type StudyFolder,
} from '@accord/contracts';
import {
  IconChevronRight,
  IconDownload,
  IconFile,
  IconFileTypeCsv,
  IconFileTypeDoc,
  IconFileTypeDocx,
  IconFileTypePdf,
  IconFileTypePpt,
  IconFileTypeXls,
  IconFolder,
  IconFolderOpen,
  IconVersions,
  type Icon,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useDownloadStudyFileMutation } from '../api/download-study-file.ts';
import { useFileUpload } from '../hooks/use-file-upload.ts';
import { ErrorDetailsTable, errorSummary, LEVEL_COLOURS } from './error-details-table.tsx';
import { UploadButton, UploadSelection, useUploadInputReset } from './file-upload.tsx';
import { UploadStatus } from './upload-status.tsx';

/** Icons by file type (document 2 section 9): doc, docx, ppt, pptx, pdf, xls, xlsx (and csv results). */
const FILE_ICONS: Record<string, { icon: Icon; color: string }> = {
  pdf: { icon: IconFileTypePdf, color: 'red.8' },
  doc: { icon: IconFileTypeDoc, color: 'blue.8' },
  docx: { icon: IconFileTypeDocx, color: 'blue.8' },
  ppt: { icon: IconFileTypePpt, color: 'orange.8' },
  pptx: { icon: IconFileTypePpt, color: 'orange.8' },
  xls: { icon: IconFileTypeXls, color: 'green.8' },
  xlsx: { icon: IconFileTypeXls, color: 'green.8' },
  csv: { icon: IconFileTypeCsv, color: 'teal.8' },
};

const loggedUnknown = new Set<string>();

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function FileIcon({ name }: { name: string }) {
  const extension = extensionOf(name);
  const known = FILE_ICONS[extension];
  if (!known && !loggedUnknown.has(extension)) {
    // An unknown file type is only logged (document 2 section 8).
    loggedUnknown.add(extension);
    console.warn(`Unknown file type: ${extension || '(none)'} (${name})`);
  }
  const { icon: TypeIcon, color } = known ?? { icon: IconFile, color: 'gray.7' };
  return (
    <Box c={color} style={{ display: 'inline-flex', flexShrink: 0 }}>
      <TypeIcon size={22} aria-hidden="true" />
    </Box>
  );
}

/** The file type an upload into the folder carries. */
function folderFileType(folder: StudyFolder): string {
  return folder === 'results' ? 'RDF' : folder;
}

function isStudyFolder(name: string): name is StudyFolder {
  return (STUDY_FOLDERS as readonly string[]).includes(name);
}

function isFileType(type: string): type is StudyFileEntry['type'] {
  return (STUDY_FILE_TYPES as readonly string[]).includes(type);
}

const byName = (a: StudyFileNode, b: StudyFileNode) => a.name.localeCompare(b.name);

/** A badge that opens the Error details modal: red with errors, yellow with warnings only. */
function ErrorBadge({
  errors,
  name,
  onOpen,
}: {
  errors: StudyFileError[];
  name: string;
  onOpen: () => void;
}) {
  if (errors.length === 0) return null;
  const level = errors.some((item) => item.level === 'error') ? 'error' : 'warning';
  const summary = errorSummary(errors);
  return (
    <Badge
      component="button"
      type="button"
      onClick={onOpen}
      color={LEVEL_COLOURS[level]}
      variant="filled"
      autoContrast
      style={{ cursor: 'pointer', flexShrink: 0 }}
      aria-label={`Error details of ${name}: ${summary}`}
    >
      {summary}
    </Badge>
  );
}

export interface FileTreeActions {
  studyId: number;
  canDownload: boolean;
  isAdmin: boolean;
  onVersionControl: (file: { name: string; folder: StudyFolder; fileType: string }) => void;
  onErrorDetails: (target: { name: string; errors: StudyFileError[] }) => void;
}

function FileRow({
  node,
  folder,
  actions,
}: {
  node: StudyFileNode;
  folder: string;
  actions: FileTreeActions;
}) {
  const [showDetails, setShowDetails] = useState(false);
  const download = useDownloadStudyFileMutation();
  const fileType = node.file_type ?? (isStudyFolder(folder) ? folderFileType(folder) : '');
  const studyFolder = isStudyFolder(folder) ? folder : null;
  const upload = useFileUpload({
    studyId: actions.studyId,
    folder: studyFolder ?? 'report',
    filetype: fileType,
    fileName: node.name,
  });
  const resetRef = useUploadInputReset();
  const hasErrors = node.errors.length > 0;

  return (
    <Box
      component="li"
      py="xs"
      px="sm"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      data-file={node.name}
    >
      <Group justify="space-between" gap="xs" wrap="wrap" align="center">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 240px' }}>
          <FileIcon name={node.name} />
          <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {node.name}
          </Text>
          <ErrorBadge
            errors={node.errors}
            name={node.name}
            onOpen={() => actions.onErrorDetails({ name: node.name, errors: node.errors })}
          />
        </Group>
        <Group gap={6} wrap="wrap">
          {hasErrors ? (
            <Button
              size="compact-sm"
              variant="subtle"
              aria-expanded={showDetails}
              aria-label={`${showDetails ? 'Hide' : 'Show'} details of ${node.name}`}
              onClick={() => setShowDetails((shown) => !shown)}
            >
              {showDetails ? 'Hide details' : 'Show details'}
            </Button>
          ) : null}
          {studyFolder ? (
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconVersions size={16} aria-hidden="true" />}
              aria-label={`Version control of ${node.name}`}
              onClick={() => actions.onVersionControl({ name: node.name, folder: studyFolder, fileType })}
            >
              Versions
            </Button>
          ) : null}
          {actions.canDownload && node.id !== null && isFileType(fileType) ? (
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
              aria-label={`Download ${node.name}`}
              loading={download.isPending}
              onClick={() =>
                download.mutate({
                  studyId: actions.studyId,
                  file: {
                    id: node.id!,
                    name: node.name,
                    extension: extensionOf(node.name),
                    type: fileType,
                    category: '',
                    folder,
                  },
                })
              }
            >
              Download
            </Button>
          ) : null}
          {actions.isAdmin && studyFolder ? (
            <UploadButton
              upload={upload}
              folder={studyFolder}
              label={`Upload a new version of ${node.name}`}
              resetRef={resetRef}
            />
          ) : null}
        </Group>
      </Group>
      {upload.state && upload.state.status !== 'selected' ? (
        <Box mt={6}>
          <UploadStatus state={upload.state} />
        </Box>
      ) : null}
      <UploadSelection upload={upload} oldName={node.name} resetRef={resetRef} />
      {hasErrors && showDetails ? (
        <Box mt="xs">
          <ErrorDetailsTable errors={node.errors} label={`Error details of ${node.name}`} />
        </Box>
      ) : null}
    </Box>
  );
}

function FolderNode({
  node,
  actions,
  depth,
  first = false,
}: {
  node: StudyFileNode;
  actions: FileTreeActions;
  depth: number;
  first?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [hideDetails, setHideDetails] = useState(false);
  const studyFolder = isStudyFolder(node.name) ? node.name : null;
  const upload = useFileUpload({
    studyId: actions.studyId,
    folder: studyFolder ?? 'report',
    filetype: studyFolder ? folderFileType(studyFolder) : 'report',
  });
  const resetRef = useUploadInputReset();
  const children = [...node.children].sort(byName);
  const folders = children.filter((child) => child.type === 'directory');
  const files = children.filter((child) => child.type === 'file');
  const contentId = `folder-${depth}-${node.name.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const FolderIcon = open ? IconFolderOpen : IconFolder;

  return (
    <Box
      component="li"
      style={{ borderTop: first ? undefined : '1px solid var(--mantine-color-default-border)' }}
      data-folder={node.name}
    >
      <Group justify="space-between" gap="xs" wrap="wrap" px="sm" py={8}>
        <UnstyledButton
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls={contentId}
          style={{ minWidth: 0, flex: '1 1 200px' }}
        >
          <Group gap="xs" wrap="nowrap">
            <IconChevronRight
              size={16}
              aria-hidden="true"
              style={{
                transform: open ? 'rotate(90deg)' : undefined,
                transition: 'transform 150ms',
                flexShrink: 0,
              }}
            />
            <Box c="yellow.8" style={{ display: 'inline-flex', flexShrink: 0 }}>
              <FolderIcon size={22} aria-hidden="true" />
            </Box>
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {node.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {files.length + folders.length} {files.length + folders.length === 1 ? 'item' : 'items'}
            </Text>
          </Group>
        </UnstyledButton>
        <Group gap={6} wrap="wrap">
          {node.errors.length > 0 ? (
            <Button
              size="compact-sm"
              variant="subtle"
              aria-expanded={!hideDetails}
              aria-label={`${hideDetails ? 'Show' : 'Hide'} details of the ${node.name} folder`}
              onClick={() => setHideDetails((hidden) => !hidden)}
            >
              {hideDetails ? 'Show details' : 'Hide details'}
            </Button>
          ) : null}
          {actions.isAdmin && studyFolder ? (
            <UploadButton
              upload={upload}
              folder={studyFolder}
              label={`Upload a new file to the ${node.name} folder`}
              resetRef={resetRef}
            />
          ) : null}
        </Group>
      </Group>
      {upload.state && upload.state.status !== 'selected' ? (
        <Box px="sm" pb={6}>
          <UploadStatus state={upload.state} />
        </Box>
      ) : null}
      {upload.file ? (
        <Box px="sm" pb="xs">
          <UploadSelection upload={upload} resetRef={resetRef} />
        </Box>
      ) : null}
      {node.errors.length > 0 && !hideDetails ? (
        <Box px="sm" pb="xs">
          <ErrorDetailsTable errors={node.errors} label={`Error details of the ${node.name} folder`} />
        </Box>
      ) : null}
      <Collapse expanded={open} keepMountedMode="display-none">
        <Box
          component="ul"
          id={contentId}
          aria-label={`${node.name} folder`}
          m={0}
          p={0}
          ml={{ base: 'sm', sm: 'xl' }}
          style={{ listStyle: 'none' }}
        >
          {files.length + folders.length === 0 ? (
            <Text component="li" size="sm" c="dimmed" px="sm" py="xs">
              This folder is empty.
            </Text>
          ) : null}
          {folders.map((child) => (
            <FolderNode key={`d-${child.name}`} node={child} actions={actions} depth={depth + 1} />
          ))}
          {files.map((child) => (
            <FileRow key={`f-${child.id ?? child.name}`} node={child} folder={node.name} actions={actions} />
          ))}
        </Box>
      </Collapse>
    </Box>
  );
}

/** The study group's folders (sorted by name, nested, collapsible) and their files. */
export function FileTree({ root, actions }: { root: StudyFileNode; actions: FileTreeActions }) {
  const folders = root.children.filter((child) => child.type === 'directory').sort(byName);
  const files = root.children.filter((child) => child.type === 'file').sort(byName);
  return (
    <Stack gap={0}>
      <Box component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={`Files of ${root.name}`}>
        {folders.map((child, index) => (
          <FolderNode key={`d-${child.name}`} node={child} actions={actions} depth={0} first={index === 0} />
        ))}
        {files.map((child) => (
          <FileRow key={`f-${child.id ?? child.name}`} node={child} folder="" actions={actions} />
        ))}
      </Box>
    </Stack>
  );
}
