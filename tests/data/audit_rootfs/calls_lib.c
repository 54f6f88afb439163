int planted_value(void);

int main(void)
{
    return planted_value() == 42 ? 0 : 1;
}
