export { looksLikeTestFile, findTestMockNodes, type MockMatch, type MockShape } from './find.js';
export { planClientAnswers, type ClientAnswerPlan } from './client-answer.js';
export { scanTestMocks, mockSites, reportedMockInside, TEST_MOCK_ADVICE, type TestMockScan, type ScanOptions } from './scan.js';
