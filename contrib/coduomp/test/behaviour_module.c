/* behaviour_module.c -- the contrib test's program for the game and cgame
 * units, linked the swapped way (the module's objects with the unit): calls
 * one export, BG_StringHashValue, whose value is fixed by its definition
 * (the sum of each lower-cased byte times 119 + its position). */
#include <stdint.h>
#include <stdio.h>

int32_t BG_StringHashValue(const char *text);

int main(void)
{
    /* 'r'*119 + 'u'*120 + 'n'*121 */
    int32_t hash = BG_StringHashValue("Run");
    if (hash != 40916) {
        printf("behaviour FAILED: BG_StringHashValue(\"Run\") = %d, expected 40916\n", hash);
        return 1;
    }
    printf("export called: BG_StringHashValue(\"Run\")=%d\n", hash);
    return 0;
}
