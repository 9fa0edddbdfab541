/* locale.c: the locale a native image starts in, from the environment (LC_ALL, LC_MESSAGES,
 * LC_CTYPE, LANG) as setlocale reads it: "de_BE.UTF-8@euro" gives language de, country BE,
 * variant euro; "C" and "POSIX" give English, as the JDK does. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include "svm_locale.h"

static svm_locale_props_t props;

static void parse(const char *name, char **language, char **country, char **variant) {
  *language = *country = *variant = NULL;
  if (name == NULL || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 || *name == '\0') {
    *language = strdup("en");
    return;
  }
  char *copy = strdup(name);
  if (copy == NULL) return;
  char *at = strchr(copy, '@');
  if (at) { *at = '\0'; *variant = strdup(at + 1); }
  char *dot = strchr(copy, '.');
  if (dot) *dot = '\0';
  char *underscore = strchr(copy, '_');
  if (underscore) { *underscore = '\0'; *country = strdup(underscore + 1); }
  *language = strdup(copy);
  free(copy);
}

int svm_initialize_locale(void) {
  setlocale(LC_ALL, "");
  const char *display = setlocale(LC_MESSAGES, NULL);
  const char *format = setlocale(LC_CTYPE, NULL);
  parse(display, &props.display_language, &props.display_country, &props.display_variant);
  parse(format, &props.format_language, &props.format_country, &props.format_variant);
  setlocale(LC_ALL, "C");
  if (props.display_language == NULL || props.format_language == NULL) {
    return SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY;
  }
  return SVM_LOCALE_INITIALIZATION_SUCCEEDED;
}

svm_locale_props_t *svm_get_locale(void) {
  return &props;
}
