// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Lets forbidden-apis accept one use of a forbidden API; say why in {@link #reason()}. */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE, ElementType.CONSTRUCTOR})
@interface SuppressForbidden {
  String reason();
}
