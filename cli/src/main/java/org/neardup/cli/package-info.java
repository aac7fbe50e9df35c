// SPDX-License-Identifier: Apache-2.0
/**
 * The {@code neardup} command line: a thin adapter that reads inputs, calls core and renders
 * results. Per-document problems are counted and listed, never fatal; a failed run never replaces a
 * good output. Nothing here is API: the commands and their output formats are the interface.
 */
@NullMarked
package org.neardup.cli;

import org.jspecify.annotations.NullMarked;
