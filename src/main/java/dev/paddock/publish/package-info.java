/**
 * Publishing a sandbox's branch: pushing it to a remote of its repository through the git CLI (the user's own
 * credentials and helpers, never stored or shown by Paddock) and opening a pull request through the GitHub CLI
 * ({@code gh}) when it is installed and signed in.
 */
package dev.paddock.publish;
