// SPDX-License-Identifier: Apache-2.0
/**
 * Judging quality apart from speed: precision, recall and F1 of the engine on a labelled dataset
 * (documents plus labelled pairs, the layout of the project's development set), per language,
 * length and kind of edit, swept over k, the similarity threshold and the settings a user can
 * switch, rendered as text, JSON and a self-contained HTML report. The scorer counts exactly as the
 * dataset's own {@code score.py} does. {@link org.neardup.eval.CorpusGenerator} makes synthetic
 * corpora with known near-duplicates at any size, for benchmarks ({@code neardup bench generate}).
 */
@NullMarked
package org.neardup.eval;

import org.jspecify.annotations.NullMarked;
