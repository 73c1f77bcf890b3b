// Replies whose default error answer has started on its way out. The error path asks (onError
// hooks see once more the error that breaks that answer, an onSend hook failing again), the
// default answer records it and then writes a second failure directly. Shared by both, so it sits
// below both.

/** Replies whose default error answer went through onSend once. */
export const defaultAnswerStarted = new WeakSet<object>();
