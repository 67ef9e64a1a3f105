/**
 * The merge queue: one serial queue per repository brings finished branches into base with {@code --no-ff},
 * and hands conflicts to the conflict queue ({@code merge.conflict} classifies them).
 */
package dev.paddock.merge;
