from xlingmed.cli import main

main()
