import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Accord's brand colour; shades 6 to 9 keep WCAG AA contrast with white text and on light tints. */
const plum: MantineColorsTuple = [
  '#f7f0fa',
  '#ecdff2',
  '#d7bde6',
  '#c099d8',
  '#a977ca',
  '#9560bf',
  '#7d4aa8',
  '#6a3b93',
  '#58307c',
  '#472664',
];

export const theme = createTheme({
  primaryColor: 'plum',
  colors: { plum },
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Honour the operating system's reduced-motion setting (modals and menus appear without animation).
  respectReducedMotion: true,
  components: {
    Badge: { defaultProps: { variant: 'light' } },
    // Mantine's close buttons carry no text; name them for screen readers.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    // The menu's focus placeholder is a focusable element with no role, which screen readers trip on.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
  },
});

/**
 * Mantine's dimmed grey and the text of its light variants (badges, alerts) fall short of WCAG AA
 * contrast on their tints; these darker values pass (4.5:1 or better).
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolvedTheme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolvedTheme.colors.gray[7],
    // Placeholders such as the csv pickers' are read as text: 5:1 on white, 4.5:1 on the grey cards.
    '--mantine-color-placeholder': '#697077',
    '--mantine-color-error': resolvedTheme.colors.red[9],
    '--mantine-color-green-light-color': '#1e6b2e',
    '--mantine-color-yellow-light-color': '#7a4300',
    '--mantine-color-orange-light-color': '#8a3c00',
    '--mantine-color-red-light-color': '#9c2222',
    '--mantine-color-teal-light-color': '#0b5e4a',
    '--mantine-color-cyan-light-color': '#0b5866',
    '--mantine-color-blue-light-color': '#14548f',
  },
  dark: {},
});
