/**
 * Scripts the documents list as GET take GET only: a POST is answered 405, as a server dispatching on the
 * method would. Their parameters are read from the query string (a GET has no form body).
 */
export const GET_SCRIPT = ['GET'];

/**
 * Scripts whose method the documents do not give (the restore scripts): the pack's choice is POST, and the
 * sandbox also takes GET so that either choice can be tried.
 */
export const UNDOCUMENTED_METHOD_SCRIPT = ['GET', 'POST'];
