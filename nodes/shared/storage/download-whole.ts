// The transfer owns reading into one buffer now (`transport/transfer.ts`); kept for the tests that import it here.
export { readWhole } from '../transport';
