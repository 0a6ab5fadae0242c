/** Numbers the product specification fixes for the interface. */

/** Between a page's own title and the complement: "Cart | Till". */
export const TITLE_SEPARATOR = '|';

/** How long a dialog takes to close after a click outside it. */
export const DIALOG_TRANSITION_MS = 150;

/** Rows a data table shows first, and the choices it offers; -1 means every row. */
export const TABLE_ROWS_PER_PAGE = 10;
export const TABLE_ROWS_OPTIONS = [5, 10, 15, -1] as const;

/** Long selects fetch their options in batches of this size. */
export const SELECT_BATCH_SIZE = 20;

/** A menu never grows taller than this; longer ones scroll. */
export const MENU_MAX_HEIGHT_PX = 304;

/** The order page asks for the status this often until the order is final. */
export { ORDER_POLL_INTERVAL_MS } from '@till/protocol';

/** Picked images are scaled down in the browser to fit inside this box before upload. */
export const IMAGE_MAX_WIDTH = 1024;
export const IMAGE_MAX_HEIGHT = 768;
