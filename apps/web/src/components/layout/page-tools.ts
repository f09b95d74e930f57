/** Id of the layout's slot above each page for page-wide tools (the saved-searches tab on a phone). */
export const PAGE_TOOLS_ID = 'accord-page-tools';
